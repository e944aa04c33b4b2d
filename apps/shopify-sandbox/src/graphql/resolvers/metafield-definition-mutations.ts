import { toGid } from '../../common/gid.js';
import { type MetafieldDefinitionRecord, ownerTypeOf } from '../../products/metafield-definition.store.js';
import type { AdminContext } from '../admin-context.js';
import { type Validation, validationOptionProblem } from '../metafields/definition-validations.js';
import { nameProblem, resolveNamespace, SANDBOX_APP_ID } from '../metafields/metafield-namespace.js';
import { metafieldType } from '../metafields/metafield-value.js';
import { findDefinition, metafieldDefinitionNode } from './metafield-definition-view.js';

/**
 * "Each app installed on a shop can create up to 256 metafield definitions per resource type";
 * "Merchants can create up to 256 metafield definitions per resource type"
 * (https://shopify.dev/docs/apps/build/metafields/metafield-limits, read 2026-11-26; an older
 * page, https://shopify.dev/docs/apps/build/custom-data/metafields/metafield-limits, says 250
 * in all: the sandbox follows the newer 256 and 256).
 */
export const DEFINITION_LIMITS = { app: 256, merchant: 256 } as const;

interface AccessInput {
  admin?: string | null;
  storefront?: string | null;
  customerAccount?: string | null;
}

interface DefinitionInput {
  name?: string | null;
  namespace?: string | null;
  key: string;
  description?: string | null;
  type?: string;
  ownerType: string;
  validations?: Validation[] | null;
  access?: AccessInput | null;
  pin?: boolean | null;
}

interface UserError {
  field: string[] | null;
  message: string;
  code: string;
}

const OWNER_LABEL: Readonly<Record<string, string>> = {
  PRODUCT: 'Product',
  PRODUCTVARIANT: 'Product variant',
  COLLECTION: 'Collection',
};

/** An app-owned namespace: this app's `app--<id>` (after `$app` is resolved). */
export function isAppNamespace(namespace: string): boolean {
  return namespace === `app--${SANDBOX_APP_ID}` || namespace.startsWith(`app--${SANDBOX_APP_ID}--`);
}

/**
 * `metafieldDefinitionCreate`, `metafieldDefinitionUpdate` and `metafieldDefinitionDelete` with
 * Shopify's rules: known types, namespace and key formats, one definition per owner type,
 * namespace and key (TAKEN), validation options per type (INVALID_OPTION, DUPLICATE_OPTION),
 * admin access only on app-owned definitions (ADMIN_ACCESS_INPUT_NOT_ALLOWED; default
 * MERCHANT_READ), the per-owner-type limits, and the codes of the 2026-07 schema.
 */
export const metafieldDefinitionMutations = {
  metafieldDefinitionCreate: (args: { definition: DefinitionInput }, ctx: AdminContext) => {
    const input = args.definition;
    const namespace = resolveNamespace(input.namespace);
    const fail = (field: string, code: string, message: string) => ({
      createdDefinition: null,
      userErrors: [{ field: ['definition', field], message, code, elementKey: null, elementIndex: null }],
    });
    const common = commonProblem(input, namespace);
    if (common) return fail(common.field, common.code, common.message);
    if (!input.type || !metafieldType(input.type))
      return fail('type', 'INCLUSION', 'Type is not included in the list.');
    const option = validationOptionProblem(input.type, input.validations ?? []);
    if (option) return fail('validations', option.code, option.message);
    const definitions = ctx.shop.metafieldDefinitions;
    if (definitions.find(input.ownerType, namespace, input.key)) {
      const owner = OWNER_LABEL[input.ownerType] ?? input.ownerType;
      return fail('key', 'TAKEN', `Key is in use for ${owner} metafields on the '${namespace}' namespace.`);
    }
    const app = isAppNamespace(namespace);
    const sameKind = definitions
      .list()
      .filter((d) => d.ownerType === input.ownerType && isAppNamespace(d.namespace) === app).length;
    if (sameKind >= (app ? DEFINITION_LIMITS.app : DEFINITION_LIMITS.merchant)) {
      return app
        ? fail(
            'ownerType',
            'RESOURCE_TYPE_LIMIT_EXCEEDED_BY_APP',
            'The definition limit per owner type for the app has exceeded.',
          )
        : fail(
            'ownerType',
            'RESOURCE_TYPE_LIMIT_EXCEEDED',
            'The definition limit per owner type has exceeded.',
          );
    }
    const now = ctx.clock.now();
    const record: MetafieldDefinitionRecord = {
      id: ctx.shop.ids.take(),
      ownerType: input.ownerType,
      namespace,
      key: input.key,
      name: (input.name ?? '').trim(),
      description: input.description ?? null,
      type: input.type,
      validations: (input.validations ?? []).map(({ name, value }) => ({ name, value })),
      adminAccess: app ? (input.access?.admin ?? 'MERCHANT_READ') : 'PUBLIC_READ_WRITE',
      storefrontAccess: input.access?.storefront ?? 'NONE',
      createdAt: now,
      updatedAt: now,
    };
    definitions.put(record);
    return { createdDefinition: metafieldDefinitionNode(ctx, record), userErrors: [] };
  },

  metafieldDefinitionUpdate: (args: { definition: DefinitionInput }, ctx: AdminContext) => {
    const input = args.definition;
    const namespace = resolveNamespace(input.namespace);
    const fail = (field: string, code: string, message: string) => ({
      updatedDefinition: null,
      validationJob: null,
      userErrors: [{ field: ['definition', field], message, code, elementKey: null, elementIndex: null }],
    });
    const record = ctx.shop.metafieldDefinitions.find(input.ownerType, namespace, input.key);
    if (!record) return fail('key', 'NOT_FOUND', "The metafield definition wasn't found.");
    if (input.name !== undefined && input.name !== null && input.name.trim() === '')
      return fail('name', 'BLANK', "Name can't be blank.");
    if (input.access?.admin && !isAppNamespace(namespace))
      return fail(
        'access',
        'ADMIN_ACCESS_INPUT_NOT_ALLOWED',
        'Admin access can only be specified for app-owned metafield definitions.',
      );
    if (input.validations) {
      const option = validationOptionProblem(record.type, input.validations);
      if (option) return fail('validations', option.code, option.message);
      record.validations = input.validations.map(({ name, value }) => ({ name, value }));
    }
    if (input.name) record.name = input.name.trim();
    if (input.description !== undefined) record.description = input.description;
    if (input.access?.admin) record.adminAccess = input.access.admin;
    if (input.access?.storefront) record.storefrontAccess = input.access.storefront;
    record.updatedAt = ctx.clock.now();
    return { updatedDefinition: metafieldDefinitionNode(ctx, record), validationJob: null, userErrors: [] };
  },

  metafieldDefinitionDelete: (
    args: {
      id?: string | null;
      identifier?: { ownerType: string; namespace?: string | null; key: string } | null;
      deleteAllAssociatedMetafields?: boolean | null;
    },
    ctx: AdminContext,
  ) => {
    const fail = (code: string, message: string) => ({
      deletedDefinitionId: null,
      deletedDefinition: null,
      userErrors: [{ field: [args.id ? 'id' : 'identifier'], message, code }],
    });
    const record = findDefinition(ctx, args);
    if (!record) return fail('NOT_FOUND', 'Definition not found.');
    const owned = [...ctx.shop.metafields.all()].filter(
      (m) =>
        m.namespace === record.namespace &&
        m.key === record.key &&
        ownerTypeOf(m.ownerId) === record.ownerType,
    );
    if (owned.length > 0 && isAppNamespace(record.namespace) && !args.deleteAllAssociatedMetafields) {
      return fail(
        'RESERVED_NAMESPACE_ORPHANED_METAFIELDS',
        'Deleting a definition in a reserved namespace requires deletion of its associated metafields.',
      );
    }
    if (args.deleteAllAssociatedMetafields) {
      for (const m of owned) ctx.shop.metafields.delete(m.ownerId, m.namespace, m.key);
    }
    ctx.shop.metafieldDefinitions.delete(record.id);
    return {
      deletedDefinitionId: toGid('MetafieldDefinition', record.id),
      deletedDefinition: {
        __typename: 'MetafieldDefinitionIdentifier',
        ownerType: record.ownerType,
        namespace: record.namespace,
        key: record.key,
      },
      userErrors: [],
    };
  },
};

/** Name, namespace, key and access rules shared by create. */
function commonProblem(
  input: DefinitionInput,
  namespace: string,
): (Omit<UserError, 'field'> & { field: string }) | undefined {
  if (!input.name || input.name.trim() === '')
    return { field: 'name', code: 'BLANK', message: "Name can't be blank." };
  const name = nameProblem(namespace, input.key);
  if (name) {
    const code = name.code === 'APP_NOT_AUTHORIZED' ? 'INVALID' : name.code;
    return { field: name.field, code, message: name.message };
  }
  if (input.access?.admin && !isAppNamespace(namespace))
    return {
      field: 'access',
      code: 'ADMIN_ACCESS_INPUT_NOT_ALLOWED',
      message: 'Admin access can only be specified for app-owned metafield definitions.',
    };
  return undefined;
}
