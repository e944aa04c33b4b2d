import type { ShopMode } from '../../platform/config/shop-mode.js';
import type { PlannedWriteRow } from '../../product-sync/planned/planned-write.entity.js';
import { csvText } from './csv-writer.js';
import type { FieldDiffDto, PreviewRecordDto, ShopPreviewDto } from './shop-preview.dto.js';

type Value = string | string[];

/** The planned writes' sources (`planned_writes.source`). */
const MEDIA = 'media';
const WRITE_BACK = 'write-back';
/** The media step's upload rows (`planned_writes.kind`). */
const UPLOAD = 'uploadImage';

/**
 * Why: the operator judges a shop in shadow from one answer: how many creates, patches and
 * deletes it would send to the catalog, how many uploads, how many write-backs to Shopify by
 * target, how many a merchant's edit holds back (conflicts), how many values the mapping cannot
 * map (gaps), and per product each record's field changes and final state, built from its
 * planned writes (each product's latest plan, in the order live would send it). The write-back's
 * targets of a product are one record, `source: 'shopify'`, its before and after merged. Each
 * image upload is a row of its own (`kind: 'upload'`), named by its image and the record whose
 * planned gallery holds it, so it never reads as a record without a sku (a deletion).
 */
export function shopPreview(shop: string, mode: ShopMode, rows: readonly PlannedWriteRow[]): ShopPreviewDto {
  const counts = previewCounts(rows);
  const products = new Map<string, { plannedAt: Date; records: Map<string, RecordState> }>();
  const owners = galleryOwners(rows);
  for (const row of inLiveOrder(rows)) {
    const product = products.get(row.productId) ?? { plannedAt: row.plannedAt, records: new Map() };
    products.set(row.productId, product);
    if (row.plannedAt > product.plannedAt) product.plannedAt = row.plannedAt;
    if (row.source === MEDIA && row.kind === UPLOAD) {
      const upload = uploadRecord(row, owners);
      product.records.set(`upload:${upload.image?.shopifyMediaId}`, upload);
      continue;
    }
    const shopify = row.source === WRITE_BACK;
    const sku = shopify ? '' : (row.supplierSku ?? '');
    const key = `${shopify ? 'shopify' : 'catalog'}:${sku}`;
    const record: RecordState = product.records.get(key) ?? {
      source: shopify ? 'shopify' : 'catalog',
      supplierSku: sku,
      calls: [],
      before: shopify ? {} : null,
      after: shopify ? {} : null,
      synced: false,
    };
    record.calls.push(`${row.method} ${row.path}`);
    if (shopify) {
      // Each mutation carries some of the product's targets: the first before, the last after.
      record.before = { ...(row.before ?? {}), ...record.before };
      record.after = { ...record.after, ...(row.after ?? {}) };
    } else if (row.source === MEDIA) {
      // The media step's gallery rows hold the record's `media` alone.
      if (row.supplierSku !== null)
        record.media = { before: record.media?.before ?? row.before, after: row.after };
    } else {
      if (!record.synced) record.before = row.before;
      record.synced = true;
      record.after = row.after;
    }
    product.records.set(key, record);
  }
  return {
    shop,
    mode,
    counts,
    products: [...products].map(([productId, product]) => ({
      productId,
      plannedAt: product.plannedAt.toISOString(),
      records: [...product.records.values()].map(recordDto),
    })),
  };
}

/**
 * The preview's counts: catalog calls by method (`sync`), uploads (`media`), write-back targets
 * (`write-back` mutations; each target of each owner once, by target: `seo.title`, `tags`,
 * `$app:catalog.material`), conflicts (`write-back` rows held), mapping gaps (each record's gaps
 * once, from its latest planned write).
 */
export function previewCounts(rows: readonly PlannedWriteRow[]): ShopPreviewDto['counts'] {
  const counts = { creates: 0, patches: 0, deletes: 0, uploads: 0, conflicts: 0, mappingGaps: 0 };
  const byTarget: Record<string, number> = {};
  let writeBacks = 0;
  const gaps = new Map<string, number>();
  for (const row of rows) {
    if (row.source === MEDIA && row.kind === UPLOAD) counts.uploads += 1;
    else if (row.source === WRITE_BACK) {
      if (row.method === 'HELD') counts.conflicts += 1;
      for (const name of Object.keys(row.after ?? {})) {
        const target = name.replace(/@[^@]*$/, '').replace(/^metafield:/, '');
        byTarget[target] = (byTarget[target] ?? 0) + 1;
        writeBacks += 1;
      }
    } else if (row.method === 'POST') counts.creates += 1;
    else if (row.method === 'PATCH') counts.patches += 1;
    else if (row.method === 'DELETE') counts.deletes += 1;
    if (row.supplierSku !== null && row.source !== MEDIA)
      gaps.set(`${row.productId}\u0000${row.supplierSku}`, (row.gaps ?? []).length);
  }
  for (const n of gaps.values()) counts.mappingGaps += n;
  return { ...counts, writeBacks: { total: writeBacks, byTarget }, total: rows.length };
}

/** Live sends a product's sync calls, then its media's, then its write-back's (stable within each). */
const SOURCE_ORDER = ['sync', MEDIA, WRITE_BACK];

function inLiveOrder(rows: readonly PlannedWriteRow[]): PlannedWriteRow[] {
  const rank = (row: PlannedWriteRow) => {
    const i = SOURCE_ORDER.indexOf(row.source);
    return i < 0 ? SOURCE_ORDER.length : i;
  };
  const firstOf = new Map<string, number>();
  for (const [i, row] of rows.entries()) if (!firstOf.has(row.productId)) firstOf.set(row.productId, i);
  const product = (row: PlannedWriteRow) => firstOf.get(row.productId) ?? 0;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => product(a.row) - product(b.row) || rank(a.row) - rank(b.row) || a.i - b.i)
    .map(({ row }) => row);
}

/** Of each planned upload (`upload:<media id>`), the product's records whose planned gallery holds it (by key). */
function galleryOwners(rows: readonly PlannedWriteRow[]): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const row of rows) {
    const media = row.after?.media;
    if (row.source !== MEDIA || row.supplierSku === null || !Array.isArray(media)) continue;
    for (const fileId of media) {
      const key = `${row.productId}\u0000${String(fileId)}`;
      const skus = owners.get(key) ?? [];
      if (!skus.includes(row.supplierSku)) skus.push(row.supplierSku);
      owners.set(key, skus);
    }
  }
  return owners;
}

/** An upload row: its image, the record it is for, the image map entry it leaves. */
function uploadRecord(row: PlannedWriteRow, owners: ReadonlyMap<string, string[]>): RecordState {
  const mediaId = String(row.body?.shopifyMediaId ?? row.after?.shopifyMediaId ?? '');
  const sourceUrl = typeof row.body?.sourceUrl === 'string' ? row.body.sourceUrl : null;
  const fileId = row.after?.fileId;
  return {
    kind: 'upload',
    source: 'catalog',
    supplierSku: owners.get(`${row.productId}\u0000${String(fileId)}`)?.[0] ?? '',
    image: { shopifyMediaId: mediaId, sourceUrl },
    calls: [`${row.method} ${row.path}`],
    before: row.before,
    after: { ...(row.after ?? {}), sourceUrl },
    synced: false,
  };
}

interface RecordState {
  kind?: 'upload';
  source: 'catalog' | 'shopify';
  supplierSku: string;
  image?: PreviewRecordDto['image'];
  calls: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Whether a sync row (the record's attributes) was seen. */
  synced: boolean;
  /** The gallery the media step planned (its `media` before and after). */
  media?: { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
}

function recordDto(record: RecordState): PreviewRecordDto {
  const { media } = record;
  const merge = (state: Record<string, unknown> | null, part: Record<string, unknown> | null) =>
    state === null ? null : { ...state, ...part };
  const before = !media ? record.before : record.synced ? merge(record.before, media.before) : media.before;
  const after = !media ? record.after : record.synced ? merge(record.after, media.after) : media.after;
  return {
    kind: record.kind ?? 'record',
    source: record.source,
    supplierSku: record.supplierSku,
    ...(record.image ? { image: record.image } : {}),
    calls: record.calls,
    diffs: diffs(before, after),
    finalState: after,
  };
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
  const lines: string[][] = [];
  for (const product of preview.products) {
    for (const record of product.records) {
      const calls = record.calls.join(' ');
      const at = [product.productId, record.source, record.supplierSku, calls];
      if (record.diffs.length === 0) lines.push([...at, '', '', '']);
      for (const diff of record.diffs) {
        lines.push([...at, diff.field, text(diff.before), text(diff.after)]);
      }
    }
  }
  return csvText(['productId', 'source', 'supplierSku', 'calls', 'field', 'before', 'after'], lines);
}

function text(value: Value | null): string {
  return value === null ? '' : Array.isArray(value) ? value.join('|') : value;
}
