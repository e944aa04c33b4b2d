import { toGid } from '../../common/gid.js';
import { graphqlTime } from '../../common/shop-time.js';
import { compareDigest, type MetafieldRecord } from '../../products/metafield.store.js';
import type { AdminContext, GraphQLObject } from '../admin-context.js';
import { type ConnectionArgs, connection } from '../connection.js';
import { resolveNamespace } from '../metafields/metafield-namespace.js';

interface MetafieldsArgs extends ConnectionArgs {
  namespace?: string | null;
  keys?: string[] | null;
  reverse?: boolean | null;
}

/** `metafield(namespace, key)` and `metafields(...)` of an owner (Product or ProductVariant). */
export function metafieldFields(
  ctx: AdminContext,
  ownerId: string,
  owner: () => GraphQLObject,
): GraphQLObject {
  return {
    metafield: (args: { namespace?: string | null; key: string }) => {
      const record = ctx.shop.metafields.find(ownerId, resolveNamespace(args.namespace), args.key);
      return record ? metafieldNode(record, owner) : null;
    },
    metafields: (args: MetafieldsArgs) => {
      let records = ctx.shop.metafields.list(ownerId).sort((a, b) => a.id - b.id);
      if (args.namespace) records = records.filter((m) => m.namespace === resolveNamespace(args.namespace));
      if (args.keys) {
        const wanted = new Set(args.keys.map((full) => qualify(full)));
        records = records.filter((m) => wanted.has(`${m.namespace}.${m.key}`));
      }
      if (args.reverse) records.reverse();
      return connection(
        records,
        args,
        (m) => [m.id, m.id],
        (m) => metafieldNode(m, owner),
        Boolean(args.reverse),
      );
    },
  };
}

export function metafieldNode(record: MetafieldRecord, owner: () => GraphQLObject): GraphQLObject {
  const ownerType = record.ownerId.includes('/ProductVariant/') ? 'PRODUCTVARIANT' : 'PRODUCT';
  return {
    __typename: 'Metafield',
    id: toGid('Metafield', record.id),
    legacyResourceId: String(record.id),
    namespace: record.namespace,
    key: record.key,
    type: record.type,
    value: record.value,
    jsonValue: jsonValue(record),
    compareDigest: compareDigest(record),
    createdAt: graphqlTime(record.createdAt),
    updatedAt: graphqlTime(record.updatedAt),
    ownerType,
    owner,
    description: null,
    definition: null,
    reference: null,
    sizeInBytes: Buffer.byteLength(record.value),
  };
}

/** The value as JSON: parsed for json, number, boolean, rating, list and dimension types. */
export function jsonValue(record: MetafieldRecord): unknown {
  const structured =
    /^(json|number_integer|number_decimal|boolean|rating|dimension|weight|volume|money|list\.)/;
  if (!structured.test(record.type)) return record.value;
  try {
    return JSON.parse(record.value);
  } catch {
    return record.value;
  }
}

/** `keys` entries are `namespace.key`; the namespace may be `$app` or `$app:name`. */
function qualify(full: string): string {
  const dot = full.lastIndexOf('.');
  return dot < 0 ? full : `${resolveNamespace(full.slice(0, dot))}.${full.slice(dot + 1)}`;
}
