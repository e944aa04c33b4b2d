import type { ShopMode } from '../../platform/config/shop-mode.js';
import type { PlannedWriteRow } from '../../product-sync/planned/planned-write.entity.js';
import type { FieldDiffDto, PreviewRecordDto, ShopPreviewDto } from './shop-preview.dto.js';

type Value = string | string[];

/**
 * Why: the operator judges a shop in shadow from one answer: how many creates, patches and
 * deletes it would send, and per product each record's field changes and final state, built from
 * its planned writes (each product's latest plan, in the order live would send it).
 */
export function shopPreview(shop: string, mode: ShopMode, rows: readonly PlannedWriteRow[]): ShopPreviewDto {
  const counts = { creates: 0, patches: 0, deletes: 0, total: rows.length };
  const products = new Map<string, { plannedAt: Date; records: Map<string, RecordState> }>();
  for (const row of rows) {
    if (row.method === 'POST') counts.creates += 1;
    else if (row.method === 'PATCH') counts.patches += 1;
    else if (row.method === 'DELETE') counts.deletes += 1;
    const product = products.get(row.productId) ?? { plannedAt: row.plannedAt, records: new Map() };
    products.set(row.productId, product);
    const sku = row.supplierSku ?? '';
    const record = product.records.get(sku) ?? { calls: [], before: null, after: null, synced: false };
    record.calls.push(`${row.method} ${row.path}`);
    if (row.source === 'media') {
      // The media step's rows hold the record's `media` alone; an upload (no record) only its call.
      if (row.supplierSku !== null)
        record.media = { before: record.media?.before ?? row.before, after: row.after };
    } else {
      if (!record.synced) record.before = row.before;
      record.synced = true;
      record.after = row.after;
    }
    product.records.set(sku, record);
  }
  return {
    shop,
    mode,
    counts,
    products: [...products].map(([productId, product]) => ({
      productId,
      plannedAt: product.plannedAt.toISOString(),
      records: [...product.records].map(([supplierSku, record]) => recordDto(supplierSku, record)),
    })),
  };
}

interface RecordState {
  calls: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Whether a sync row (the record's attributes) was seen. */
  synced: boolean;
  /** The gallery the media step planned (its `media` before and after). */
  media?: { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
}

function recordDto(supplierSku: string, record: RecordState): PreviewRecordDto {
  const { media } = record;
  const merge = (state: Record<string, unknown> | null, part: Record<string, unknown> | null) =>
    state === null ? null : { ...state, ...part };
  const before = !media ? record.before : record.synced ? merge(record.before, media.before) : media.before;
  const after = !media ? record.after : record.synced ? merge(record.after, media.after) : media.after;
  return { supplierSku, calls: record.calls, diffs: diffs(before, after), finalState: after };
}

/** Every attribute whose value differs between before and after (absent: null). */
export function diffs(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): FieldDiffDto[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  const out: FieldDiffDto[] = [];
  for (const field of fields) {
    const was = (before?.[field] as Value | undefined) ?? null;
    const will = (after?.[field] as Value | undefined) ?? null;
    if (JSON.stringify(was) !== JSON.stringify(will)) out.push({ field, before: was, after: will });
  }
  return out;
}

/** The preview as CSV: a header, then one line per changed field (a delete: one line, field empty). */
export function previewCsv(preview: ShopPreviewDto): string {
  const lines = [['productId', 'supplierSku', 'calls', 'field', 'before', 'after']];
  for (const product of preview.products) {
    for (const record of product.records) {
      const calls = record.calls.join(' ');
      if (record.diffs.length === 0) lines.push([product.productId, record.supplierSku, calls, '', '', '']);
      for (const diff of record.diffs) {
        lines.push([
          product.productId,
          record.supplierSku,
          calls,
          diff.field,
          text(diff.before),
          text(diff.after),
        ]);
      }
    }
  }
  return `${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}

function text(value: Value | null): string {
  return value === null ? '' : Array.isArray(value) ? value.join('|') : value;
}

/** RFC 4180: quoted when it holds a comma, a quote or a line break; a leading =+-@ is defused. */
function cell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
