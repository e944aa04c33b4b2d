import { parseGid, toGid } from '../../common/gid.js';
import type { MetafieldDefinitionRecord } from '../../products/metafield-definition.store.js';
import { ownerTypeOf } from '../../products/metafield-definition.store.js';
import type { AdminContext, GraphQLObject } from '../admin-context.js';
import { type ConnectionArgs, connection } from '../connection.js';
import { VALIDATION_OPTIONS } from '../metafields/definition-validations.js';
import { resolveNamespace } from '../metafields/metafield-namespace.js';
import { ownerNode } from './metafield-mutations.js';
import { metafieldNode } from './metafield-view.js';

/** A definition as GraphQL `MetafieldDefinition`. */
export function metafieldDefinitionNode(ctx: AdminContext, record: MetafieldDefinitionRecord): GraphQLObject {
  const base = record.type.replace(/^list\./, '');
  const metafields = () =>
    [...ctx.shop.metafields.all()].filter(
      (m) =>
        m.namespace === record.namespace &&
        m.key === record.key &&
        ownerTypeOf(m.ownerId) === record.ownerType,
    );
  return {
    __typename: 'MetafieldDefinition',
    id: toGid('MetafieldDefinition', record.id),
    name: record.name,
    namespace: record.namespace,
    key: record.key,
    description: record.description,
    ownerType: record.ownerType,
    type: {
      __typename: 'MetafieldDefinitionType',
      name: record.type,
      category: typeCategory(base),
      valueType: valueType(record.type),
      supportsDefinitionMigrations: false,
      supportedValidations: [
        ...(VALIDATION_OPTIONS[base] ?? []),
        ...(record.type.startsWith('list.') ? ['list.min', 'list.max'] : []),
      ].map((name) => ({ __typename: 'MetafieldDefinitionSupportedValidation', name, type: 'string' })),
    },
    validations: record.validations.map((v) => ({
      __typename: 'MetafieldDefinitionValidation',
      name: v.name,
      value: v.value,
      type: 'string',
    })),
    access: {
      __typename: 'MetafieldAccess',
      admin: record.adminAccess,
      storefront: record.storefrontAccess,
      customerAccount: 'NONE',
    },
    pinnedPosition: null,
    useAsCollectionCondition: false,
    validationStatus: 'ALL_VALID',
    standardTemplate: null,
    metafieldsCount: metafields().length,
    metafields: (args: ConnectionArgs) =>
      connection(
        metafields(),
        args,
        (m) => [m.id, m.id],
        (m) => metafieldNode(m, () => ownerNode(ctx, m.ownerId)),
      ),
  };
}

interface DefinitionsArgs extends ConnectionArgs {
  ownerType: string;
  namespace?: string | null;
  key?: string | null;
  reverse?: boolean | null;
}

/** `metafieldDefinition(id | identifier)` and `metafieldDefinitions(ownerType, namespace, key, …)`. */
export const metafieldDefinitionQueries = {
  metafieldDefinition: (
    args: {
      id?: string | null;
      identifier?: { ownerType: string; namespace?: string | null; key: string } | null;
    },
    ctx: AdminContext,
  ) => {
    const record = findDefinition(ctx, args);
    return record ? metafieldDefinitionNode(ctx, record) : null;
  },
  metafieldDefinitions: (args: DefinitionsArgs, ctx: AdminContext) => {
    let records = ctx.shop.metafieldDefinitions.list().filter((d) => d.ownerType === args.ownerType);
    if (args.namespace) records = records.filter((d) => d.namespace === resolveNamespace(args.namespace));
    if (args.key) records = records.filter((d) => d.key === args.key);
    if (args.reverse) records.reverse();
    return connection(
      records,
      args,
      (d) => [d.id, d.id],
      (d) => metafieldDefinitionNode(ctx, d),
      Boolean(args.reverse),
    );
  },
};

/** A definition by gid, or by owner type, namespace (`$app` resolved) and key. */
export function findDefinition(
  ctx: AdminContext,
  args: {
    id?: string | null;
    identifier?: { ownerType: string; namespace?: string | null; key: string } | null;
  },
): MetafieldDefinitionRecord | undefined {
  if (args.id) {
    const id = parseGid(args.id, 'MetafieldDefinition');
    return id === undefined ? undefined : ctx.shop.metafieldDefinitions.get(id);
  }
  if (!args.identifier) return undefined;
  const { ownerType, namespace, key } = args.identifier;
  return ctx.shop.metafieldDefinitions.find(ownerType, resolveNamespace(namespace), key);
}

/** The type's category as the admin groups types (`TEXT`, `NUMBER`, …). */
function typeCategory(base: string): string {
  if (base.endsWith('_reference')) return 'REFERENCE';
  if (['single_line_text_field', 'multi_line_text_field', 'rich_text_field'].includes(base)) return 'TEXT';
  if (['number_integer', 'number_decimal'].includes(base)) return 'NUMBER';
  if (['date', 'date_time'].includes(base)) return 'DATE_TIME';
  if (['weight', 'volume', 'dimension'].includes(base)) return 'MEASUREMENT';
  if (base === 'boolean') return 'TRUE_FALSE';
  return base.toUpperCase();
}

/** The legacy `MetafieldValueType` of a type. */
function valueType(type: string): string {
  if (type.startsWith('list.')) return 'JSON_STRING';
  if (type === 'boolean') return 'BOOLEAN';
  if (type === 'number_integer') return 'INTEGER';
  if (type === 'number_decimal') return 'FLOAT';
  return ['json', 'weight', 'volume', 'dimension', 'money', 'rating', 'link', 'rich_text_field'].includes(
    type,
  )
    ? 'JSON_STRING'
    : 'STRING';
}
