import type { CollectionRecord } from '../../collections/collection.store.js';
import { parseAnyGid, parseGid } from '../../common/gid.js';
import { compareDigest, type MetafieldRecord } from '../../products/metafield.store.js';
import { type MetafieldDefinitionRecord, ownerTypeOf } from '../../products/metafield-definition.store.js';
import type { ProductRecord } from '../../products/product.model.js';
import type { AdminContext } from '../admin-context.js';
import { validationValueProblem } from '../metafields/definition-validations.js';
import { nameProblem, resolveNamespace } from '../metafields/metafield-namespace.js';
import { metafieldNormalForm } from '../metafields/metafield-normal-form.js';
import { METAFIELD_MESSAGES } from '../metafields/metafield-types.data.js';
import { metafieldType, metafieldValueProblem } from '../metafields/metafield-value.js';

/** One metafield to set (`MetafieldsSetInput`); `compareDigest` is undefined when not given. */
export interface MetafieldWrite {
  ownerId: string;
  namespace?: string | null;
  key: string;
  type?: string | null;
  value: string;
  compareDigest?: string | null;
}

export interface MetafieldWriteError {
  field: string[];
  message: string;
  /** A `MetafieldsSetUserErrorCode`. */
  code: string;
  /** The offending item of a `list.*` value; null otherwise. */
  elementIndex: number | null;
}

export const METAFIELDS_SET_LIMIT = 25;

/**
 * Checks a batch of metafield writes as `metafieldsSet` does: owner, namespace and key rules
 * (`$app` resolved; `shopify` and other apps' namespaces refused), one write per owner,
 * namespace and key, `compareDigest` (malformed: INVALID_COMPARE_DIGEST; not the current
 * digest: STALE_OBJECT; explicit null: must not exist yet), a known `type`, and the value
 * against its type. `path` prefixes error fields, e.g. ['metafields'].
 */
export function checkMetafieldWrites(
  ctx: AdminContext,
  writes: MetafieldWrite[],
  path: string[],
): MetafieldWriteError[] {
  const errors: MetafieldWriteError[] = [];
  const seen = new Set<string>();
  for (const [index, write] of writes.entries()) {
    const slot = `${write.ownerId}\u0000${resolveNamespace(write.namespace)}\u0000${write.key}`;
    const problem = seen.has(slot)
      ? { field: 'key', code: 'TAKEN', message: METAFIELD_MESSAGES.duplicate, elementIndex: null }
      : writeProblem(ctx, write);
    seen.add(slot);
    if (problem) {
      errors.push({
        field: [...path, String(index), problem.field],
        message: problem.message,
        code: problem.code,
        elementIndex: problem.elementIndex,
      });
    }
  }
  return errors;
}

interface WriteProblem {
  field: string;
  code: string;
  message: string;
  elementIndex: number | null;
}

function writeProblem(ctx: AdminContext, write: MetafieldWrite): WriteProblem | undefined {
  const M = METAFIELD_MESSAGES;
  const fail = (field: string, code: string, message: string, elementIndex: number | null = null) => ({
    field,
    code,
    message,
    elementIndex,
  });
  if (!ownerProduct(ctx, write.ownerId) && !ownerCollection(ctx, write.ownerId))
    return fail('ownerId', 'INVALID', M.ownerMissing);
  const namespace = resolveNamespace(write.namespace);
  const name = nameProblem(namespace, write.key);
  if (name) return fail(name.field, name.code, name.message);
  const existing = ctx.shop.metafields.find(write.ownerId, namespace, write.key);
  if (write.compareDigest !== undefined && write.compareDigest !== null && !DIGEST.test(write.compareDigest))
    return fail('compareDigest', 'INVALID_COMPARE_DIGEST', M.invalidDigest);
  if (
    write.compareDigest !== undefined &&
    write.compareDigest !== (existing ? compareDigest(existing) : null)
  )
    return fail('compareDigest', 'STALE_OBJECT', M.staleDigest);
  const definition = definitionOf(ctx, write.ownerId, namespace, write.key);
  const type = write.type ?? existing?.type ?? definition?.type;
  if (!type) return fail('type', 'BLANK', M.blankType);
  if (ctx.leniency.metafieldValues) return undefined;
  if (!metafieldType(type)) return fail('type', 'INVALID_TYPE', M.unknownType(type));
  if (definition && type !== definition.type)
    return fail('type', 'INVALID_TYPE', DEFINITION_TYPE_MISMATCH(type, definition.type));
  if (existing && write.type && write.type !== existing.type)
    return fail('type', 'INVALID_TYPE', M.typeMismatch(existing.type));
  const problem = metafieldValueProblem(type, write.value, {
    currencyCode: ctx.shop.currencyCode,
    referenceExists: (gid) => referenceExists(ctx, gid),
  });
  if (problem) return fail('value', problem.code, problem.message, problem.elementIndex);
  const invalid = definition && validationValueProblem(type, write.value, definition.validations);
  return invalid ? fail('value', 'INVALID_VALUE', invalid.message, invalid.elementIndex) : undefined;
}

/** The sandbox's wording for a type that disagrees with the definition's (Shopify's is not documented). */
const DEFINITION_TYPE_MISMATCH = (given: string, defined: string) =>
  `Type '${given}' must be consistent with the definition's type: '${defined}'.`;

/** The definition governing a metafield of this owner, namespace and key, if any. */
export function definitionOf(
  ctx: AdminContext,
  ownerId: string,
  namespace: string,
  key: string,
): MetafieldDefinitionRecord | undefined {
  const ownerType = ownerTypeOf(ownerId);
  return ownerType ? ctx.shop.metafieldDefinitions.find(ownerType, namespace, key) : undefined;
}

/** What `compareDigest` hands out: a SHA-256 in hex. */
const DIGEST = /^[0-9a-f]{64}$/;

/** Products and variants are checked; the sandbox has no other referable resources to look up. */
function referenceExists(ctx: AdminContext, gid: string): boolean | undefined {
  const parsed = parseAnyGid(gid);
  if (parsed?.type === 'Product') return ctx.shop.products.get(parsed.id) !== undefined;
  if (parsed?.type === 'ProductVariant') return ctx.shop.products.findVariant(parsed.id) !== undefined;
  if (parsed?.type === 'Collection') return ctx.shop.collections.get(parsed.id) !== undefined;
  return undefined;
}

/** The collection a Collection gid names, in this shop (collections own metafields too). */
export function ownerCollection(ctx: AdminContext, ownerId: string): CollectionRecord | undefined {
  const id = parseGid(ownerId, 'Collection');
  return id === undefined ? undefined : ctx.shop.collections.get(id);
}

/** Applies checked writes; returns the records and the products whose metafields changed. */
export function applyMetafieldWrites(
  ctx: AdminContext,
  writes: MetafieldWrite[],
): { records: MetafieldRecord[]; changed: Set<ProductRecord> } {
  const now = ctx.clock.now();
  const changed = new Set<ProductRecord>();
  const records = writes.map((write) => {
    const namespace = resolveNamespace(write.namespace);
    const existing = ctx.shop.metafields.find(write.ownerId, namespace, write.key);
    const type =
      write.type ??
      existing?.type ??
      definitionOf(ctx, write.ownerId, namespace, write.key)?.type ??
      'single_line_text_field';
    // Stored as Shopify stores it (`t` → `true`, ...), which every answer then shows.
    const value =
      ctx.leniency.verbatimValues || ctx.leniency.metafieldValues || !metafieldType(type)
        ? write.value
        : metafieldNormalForm(type, write.value);
    if (existing && existing.value === value && existing.type === type) return existing;
    const record: MetafieldRecord = existing
      ? { ...existing, type, value, updatedAt: now }
      : {
          id: ctx.shop.ids.take(),
          ownerId: write.ownerId,
          namespace,
          key: write.key,
          type,
          value,
          createdAt: now,
          updatedAt: now,
        };
    ctx.shop.metafields.put(record);
    const product = ownerProduct(ctx, write.ownerId);
    if (product) changed.add(product);
    return record;
  });
  return { records, changed };
}

/** The product a Product or ProductVariant gid belongs to, in this shop. */
export function ownerProduct(ctx: AdminContext, ownerId: string): ProductRecord | undefined {
  const parsed = parseAnyGid(ownerId);
  if (parsed?.type === 'Product') return ctx.shop.products.get(parsed.id);
  if (parsed?.type === 'ProductVariant') return ctx.shop.products.findVariant(parsed.id)?.product;
  return undefined;
}
