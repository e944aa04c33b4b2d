import {
  type AttributeSource,
  type Blame,
  type EnrichmentStatus,
  EnrichmentStatus as EnrichmentStatuses,
  PLATFORM_ID_PATTERN,
  SourceType,
} from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';

/** One attribute of a bulk fixture: a value and, unlike the API, its blame and sources. */
export interface BulkAttribute {
  key: string;
  value: unknown;
  blame?: Blame;
  sources?: AttributeSource[];
}

/** One record of a bulk fixture. */
export interface BulkItem {
  supplierSku: string;
  parentSupplierSku?: string;
  attributes: BulkAttribute[];
  createdAt?: number;
  updatedAt?: number;
  dataEnrichment?: { status: EnrichmentStatus; taskId?: string; completedAt?: number };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const BLAMES: readonly string[] = ['ENRICHMENT', 'ENRICHMENT_APPROVED', 'ENRICHMENT_REJECTED'];
const SOURCE_TYPES: readonly string[] = Object.values(SourceType);
const STATUSES: readonly string[] = Object.values(EnrichmentStatuses);
const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** Reads `{products: [...]}` of the bulk route; shape only (the loader checks the content). */
export function parseBulkBody(body: unknown): BulkItem[] {
  if (!isObj(body) || !Array.isArray(body.products) || body.products.length === 0) {
    throw CatalogApiError.validation('The body must be {"products": [ ... ]} with at least one record.', {
      field: 'products',
    });
  }
  return body.products.map((item, i) => parseItem(item, `products[${i}]`, i));
}

function parseItem(item: unknown, path: string, index: number): BulkItem {
  const bad = (field: string, expected: string): never => {
    throw CatalogApiError.validation(`"${path}${field}" must be ${expected}.`, {
      field: `${path}${field}`,
      index,
    });
  };
  if (!isObj(item)) return bad('', 'an object');
  if (typeof item.supplierSku !== 'string' || item.supplierSku.trim() === '' || item.supplierSku.length > 255)
    bad('.supplierSku', 'a non-empty string of at most 255 characters');
  if (
    item.parentSupplierSku !== undefined &&
    (typeof item.parentSupplierSku !== 'string' || item.parentSupplierSku === '')
  )
    bad('.parentSupplierSku', 'a non-empty string');
  if (item.createdAt !== undefined && !isTime(item.createdAt)) bad('.createdAt', 'epoch milliseconds');
  if (item.updatedAt !== undefined && !isTime(item.updatedAt)) bad('.updatedAt', 'epoch milliseconds');
  const attributes = item.attributes ?? [];
  if (!Array.isArray(attributes)) return bad('.attributes', 'an array of {key, value, blame?, sources?}');
  const parsed: BulkAttribute[] = attributes.map((a, j) => {
    const at = `.attributes[${j}]`;
    if (!isObj(a) || typeof a.key !== 'string' || !('value' in a)) return bad(at, 'an object {key, value}');
    if (a.blame !== undefined && !BLAMES.includes(a.blame as string)) bad(`${at}.blame`, BLAMES.join(', '));
    if (a.sources !== undefined) {
      if (a.blame !== 'ENRICHMENT') bad(`${at}.sources`, 'absent unless blame is ENRICHMENT');
      const ok =
        Array.isArray(a.sources) &&
        a.sources.every(
          (s) => isObj(s) && typeof s.id === 'string' && SOURCE_TYPES.includes(s.type as string),
        );
      if (!ok) bad(`${at}.sources`, `an array of {id, type: ${SOURCE_TYPES.join(' | ')}}`);
    }
    return {
      key: a.key,
      value: a.value,
      ...(a.blame === undefined ? {} : { blame: a.blame as Blame }),
      ...(a.sources === undefined
        ? {}
        : { sources: (a.sources as AttributeSource[]).map((s) => ({ id: s.id, type: s.type })) }),
    };
  });
  const result: BulkItem = { supplierSku: item.supplierSku as string, attributes: parsed };
  if (item.parentSupplierSku !== undefined) result.parentSupplierSku = item.parentSupplierSku as string;
  if (item.createdAt !== undefined) result.createdAt = item.createdAt as number;
  if (item.updatedAt !== undefined) result.updatedAt = item.updatedAt as number;
  if (item.dataEnrichment !== undefined) {
    const d = item.dataEnrichment;
    if (!isObj(d) || !STATUSES.includes(d.status as string))
      bad('.dataEnrichment.status', STATUSES.join(', '));
    const de = d as Obj;
    if (de.taskId !== undefined && (typeof de.taskId !== 'string' || !PLATFORM_ID_PATTERN.test(de.taskId)))
      bad('.dataEnrichment.taskId', 'two letters followed by 8 digits');
    if (de.completedAt !== undefined && !isTime(de.completedAt))
      bad('.dataEnrichment.completedAt', 'epoch milliseconds');
    result.dataEnrichment = {
      status: de.status as EnrichmentStatus,
      ...(de.taskId === undefined ? {} : { taskId: de.taskId as string }),
      ...(de.completedAt === undefined ? {} : { completedAt: de.completedAt as number }),
    };
  }
  return result;
}
