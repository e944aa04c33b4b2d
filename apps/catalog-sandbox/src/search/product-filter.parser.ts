import { EnrichmentStatus } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { type Condition, type FieldSpec, parseConditions } from './filter-condition.js';
import { isPlainObject } from './json-shape.js';

/** One `attributes` entry: the attribute keys it targets and the condition on their values. */
export interface AttributeCriterionFilter {
  key: Condition[];
  value: Condition[];
}

/** A product search filter, checked and compiled; every part must hold (AND). */
export interface ProductFilterQuery {
  supplierSku: Condition[];
  skuId: Condition[];
  createdAt: Condition[];
  updatedAt: Condition[];
  /** Lower-cased; null when absent. */
  keyword: string | null;
  attributes: AttributeCriterionFilter[];
  enrichmentStatus: Condition[];
  enrichmentCompletedAt: Condition[];
  completionRate: Condition[];
}

const TEXT: FieldSpec = { type: 'string', nullable: false };
const TIME: FieldSpec = { type: 'number', nullable: false };
const ATTRIBUTE_VALUE: FieldSpec = { type: 'string', nullable: true, numbersAsStrings: true };
const STATUS: FieldSpec = { type: 'string', nullable: true, allowed: Object.values(EnrichmentStatus) };
const COMPLETED_AT: FieldSpec = { type: 'number', nullable: true };
const RATE: FieldSpec = { type: 'number', nullable: false };

export const PRODUCT_FILTER_FIELDS = [
  'supplierSku',
  'skuId',
  'createdAt',
  'updatedAt',
  'keyword',
  'attributes',
  'dataEnrichment',
  'attributeSummary',
] as const;

const EXPECTED_FIELD = `a filter field: ${PRODUCT_FILTER_FIELDS.join(', ')}`;
/** Default for an entry with only `key`: the attribute has a value. */
const HAS_VALUE: Condition[] = [{ op: '$exists', exists: true }];

export function emptyProductFilter(): ProductFilterQuery {
  return {
    supplierSku: [],
    skuId: [],
    createdAt: [],
    updatedAt: [],
    keyword: null,
    attributes: [],
    enrichmentStatus: [],
    enrichmentCompletedAt: [],
    completionRate: [],
  };
}

/**
 * Reads the `filter` of POST /v1/products/search. The nested forms `dataEnrichment.status` and
 * `attributeSummary.enrichableCompletionRate` are also accepted as dotted keys. Refuses with
 * invalid_query_structure anything off the spec's shapes, and with unsupported_operator a key
 * in operator position that is not one of the ten operators (or a `$` key in field position).
 */
export function parseProductFilter(raw: unknown): ProductFilterQuery {
  const query = emptyProductFilter();
  if (raw === undefined || raw === null) return query;
  if (!isPlainObject(raw)) throw CatalogApiError.queryStructure('filter', 'an object', raw);
  for (const [field, value] of Object.entries(raw)) {
    switch (field) {
      case 'supplierSku':
      case 'skuId':
        query[field].push(...parseConditions(value, field, TEXT));
        break;
      case 'createdAt':
      case 'updatedAt':
        query[field].push(...parseConditions(value, field, TIME));
        break;
      case 'keyword':
        if (typeof value !== 'string') throw CatalogApiError.queryStructure(field, 'a string', value);
        query.keyword = value.toLowerCase();
        break;
      case 'attributes':
        query.attributes.push(...parseAttributeCriteria(value));
        break;
      case 'dataEnrichment':
        parseNested(value, field, {
          status: (v, at) => query.enrichmentStatus.push(...parseConditions(v, at, STATUS)),
          completedAt: (v, at) => query.enrichmentCompletedAt.push(...parseConditions(v, at, COMPLETED_AT)),
          // Lenient extra: {"dataEnrichment": {"$exists": false}} (status is present iff dataEnrichment is).
          $exists: (v, at) => query.enrichmentStatus.push(...parseConditions({ $exists: v }, at, STATUS)),
        });
        break;
      case 'dataEnrichment.status':
        query.enrichmentStatus.push(...parseConditions(value, field, STATUS));
        break;
      case 'dataEnrichment.completedAt':
        query.enrichmentCompletedAt.push(...parseConditions(value, field, COMPLETED_AT));
        break;
      case 'attributeSummary':
        parseNested(value, field, {
          enrichableCompletionRate: (v, at) => query.completionRate.push(...parseConditions(v, at, RATE)),
        });
        break;
      case 'attributeSummary.enrichableCompletionRate':
        query.completionRate.push(...parseConditions(value, field, RATE));
        break;
      default:
        throw unknownField(field, value);
    }
  }
  return query;
}

function parseNested(
  raw: unknown,
  field: string,
  handlers: Record<string, (value: unknown, at: string) => void>,
): void {
  const names = Object.keys(handlers);
  if (!isPlainObject(raw)) {
    throw CatalogApiError.queryStructure(field, `an object with ${names.join(' and/or ')}`, raw);
  }
  for (const [name, value] of Object.entries(raw)) {
    const handler = handlers[name];
    if (!handler) throw unknownField(`${field}.${name}`, value, `one of ${names.join(', ')}`);
    handler(value, `${field}.${name}`);
  }
}

function parseAttributeCriteria(raw: unknown): AttributeCriterionFilter[] {
  if (!Array.isArray(raw)) {
    throw CatalogApiError.queryStructure('attributes', 'an array of {key, value} criteria', raw);
  }
  return raw.map((entry, i) => {
    const at = `attributes[${i}]`;
    if (!isPlainObject(entry)) throw CatalogApiError.queryStructure(at, 'an object {key, value}', entry);
    for (const name of Object.keys(entry)) {
      if (name !== 'key' && name !== 'value')
        throw unknownField(`${at}.${name}`, entry[name], 'key or value');
    }
    if (entry.key === undefined) {
      throw CatalogApiError.queryStructure(`${at}.key`, 'an operator object on the attribute key', undefined);
    }
    return {
      key: parseConditions(entry.key, `${at}.key`, TEXT),
      value:
        entry.value === undefined ? HAS_VALUE : parseConditions(entry.value, `${at}.value`, ATTRIBUTE_VALUE),
    };
  });
}

function unknownField(field: string, value: unknown, expected = EXPECTED_FIELD): CatalogApiError {
  const name = field.split('.').pop() ?? field;
  if (name.startsWith('$')) return CatalogApiError.unsupportedOperator(name, field);
  return CatalogApiError.queryStructure(field, expected, value);
}
