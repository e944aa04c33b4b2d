import { parseAnyGid } from '../../common/gid.js';
import { compareDigest, type MetafieldRecord } from '../../products/metafield.store.js';
import type { ProductRecord } from '../../products/product.model.js';
import type { AdminContext } from '../admin-context.js';
import { resolveNamespace } from '../metafield-namespace.js';

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
  code: string;
  elementIndex: number;
}

export const METAFIELDS_SET_LIMIT = 25;

/**
 * Checks a batch of metafield writes as `metafieldsSet` does: owner, key, namespace, type and
 * value rules, and `compareDigest` (a digest must match the current one; an explicit null means
 * the metafield must not exist yet). `path` prefixes error fields, e.g. ['metafields'].
 */
export function checkMetafieldWrites(
  ctx: AdminContext,
  writes: MetafieldWrite[],
  path: string[],
): MetafieldWriteError[] {
  const errors: MetafieldWriteError[] = [];
  for (const [index, write] of writes.entries()) {
    const problem = writeProblem(ctx, write);
    if (problem) {
      errors.push({
        field: [...path, String(index), problem.field],
        message: problem.message,
        code: problem.code,
        elementIndex: index,
      });
    }
  }
  return errors;
}

function writeProblem(
  ctx: AdminContext,
  write: MetafieldWrite,
): { field: string; code: string; message: string } | undefined {
  const fail = (field: string, code: string, message: string) => ({ field, code, message });
  if (!ownerProduct(ctx, write.ownerId)) return fail('ownerId', 'INVALID', 'Owner does not exist.');
  const namespace = resolveNamespace(write.namespace);
  if (namespace.length < 2 || namespace.length > 255) {
    return fail('namespace', 'INVALID', 'Namespace must be between 2 and 255 characters.');
  }
  if (!/^[A-Za-z0-9_-]{2,64}$/.test(write.key)) {
    return fail(
      'key',
      'INVALID',
      'Key must be 2 to 64 characters of letters, digits, dashes or underscores.',
    );
  }
  const existing = ctx.shop.metafields.find(write.ownerId, namespace, write.key);
  if (
    write.compareDigest !== undefined &&
    write.compareDigest !== (existing ? compareDigest(existing) : null)
  ) {
    return fail(
      'compareDigest',
      'STALE_OBJECT',
      'The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.',
    );
  }
  const type = write.type ?? existing?.type;
  if (!type) return fail('type', 'BLANK', "Type can't be blank.");
  if (existing && write.type && write.type !== existing.type) {
    return fail('type', 'INVALID_TYPE', `Type must be ${existing.type}, the type of the existing metafield.`);
  }
  const problem = valueProblem(type, write.value);
  return problem ? fail('value', 'INVALID_VALUE', problem) : undefined;
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
    const type = write.type ?? existing?.type ?? 'single_line_text_field';
    if (existing && existing.value === write.value && existing.type === type) return existing;
    const record: MetafieldRecord = existing
      ? { ...existing, type, value: write.value, updatedAt: now }
      : {
          id: ctx.shop.ids.take(),
          ownerId: write.ownerId,
          namespace,
          key: write.key,
          type,
          value: write.value,
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

function valueProblem(type: string, value: string): string | undefined {
  switch (type) {
    case 'number_integer':
      return /^-?\d+$/.test(value) ? undefined : 'Value must be an integer.';
    case 'number_decimal':
      return /^-?\d+(\.\d+)?$/.test(value) ? undefined : 'Value must be a decimal number.';
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'Value must be true or false.';
    case 'single_line_text_field':
      return value.includes('\n') ? 'Value must be a single line of text.' : undefined;
    case 'json':
      return parses(value) ? undefined : 'Value must be valid JSON.';
    default:
      if (type.startsWith('list.')) {
        return parses(value) && Array.isArray(JSON.parse(value)) ? undefined : 'Value must be a JSON array.';
      }
      return undefined;
  }
}

function parses(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}
