import { CategoryScope } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { Condition } from '../search/filter-condition.js';
import { parseConditions } from '../search/filter-condition.js';
import { isPlainObject } from '../search/json-shape.js';

export const ALL_SCOPES: readonly CategoryScope[] = Object.values(CategoryScope);

/** `option.variantable`: any (no filter), only variant-specific, or only without the flag. */
export type VariantableFilter = 'any' | 'flagged' | 'unflagged';

/** An attribute search filter, checked; every part must hold. */
export interface AttributeSearchQuery {
  /** null: no category filter. */
  linkedCategories: string[] | null;
  scopes: CategoryScope[];
  variantable: VariantableFilter;
  key: Condition[];
}

const FIELDS = 'linkedCategories, categoryScopes, option, option.variantable, key';

/**
 * Reads the `filter` of POST /v1/attributes/search. `option.variantable` may be nested or a
 * dotted key; `key` takes any operator object (the spec shows `$eq`). Anything else is
 * invalid_query_structure; a `$` key where a field or operator is expected is unsupported_operator
 * unless it is one of the ten operators used where it does not apply.
 */
export function parseAttributeFilter(raw: unknown): AttributeSearchQuery {
  const query: AttributeSearchQuery = {
    linkedCategories: null,
    scopes: [...ALL_SCOPES],
    variantable: 'any',
    key: [],
  };
  if (raw === undefined || raw === null) return query;
  if (!isPlainObject(raw)) throw CatalogApiError.queryStructure('filter', 'an object', raw);
  const variantable: VariantableFilter[] = [];
  for (const [field, value] of Object.entries(raw)) {
    switch (field) {
      case 'linkedCategories':
        query.linkedCategories = stringArray(value, field);
        break;
      case 'categoryScopes':
        query.scopes = stringArray(value, field).map((scope, i) => {
          if (!(ALL_SCOPES as readonly string[]).includes(scope)) {
            throw CatalogApiError.queryStructure(`${field}[${i}]`, ALL_SCOPES.join(', '), scope);
          }
          return scope as CategoryScope;
        });
        break;
      case 'option':
        if (!isPlainObject(value))
          throw CatalogApiError.queryStructure(field, 'an object {variantable}', value);
        for (const [name, inner] of Object.entries(value)) {
          if (name !== 'variantable') throw unknownField(`option.${name}`, inner, 'variantable');
          variantable.push(parseVariantable(inner, 'option.variantable'));
        }
        break;
      case 'option.variantable':
        variantable.push(parseVariantable(value, field));
        break;
      case 'key':
        query.key = parseConditions(value, field, { type: 'string', nullable: false });
        break;
      default:
        throw unknownField(field, value, `a filter field: ${FIELDS}`);
    }
  }
  query.variantable = combine(variantable);
  return query;
}

function parseVariantable(raw: unknown, field: string): VariantableFilter {
  const expected = 'true, or {"$exists": false}';
  if (raw === true) return 'flagged';
  if (!isPlainObject(raw)) throw CatalogApiError.queryStructure(field, expected, raw);
  const entries = Object.entries(raw);
  const [op, operand] = entries[0] ?? [];
  if (entries.length !== 1 || op === undefined) throw CatalogApiError.queryStructure(field, expected, raw);
  if (op !== '$exists' && op !== '$eq') {
    parseConditions(raw, field, { type: 'string', nullable: false }); // throws unsupported_operator for unknown ones
    throw CatalogApiError.queryStructure(`${field}.${op}`, expected, operand);
  }
  if (typeof operand !== 'boolean')
    throw CatalogApiError.queryStructure(`${field}.${op}`, 'a boolean', operand);
  return operand ? 'flagged' : 'unflagged';
}

/** Nested and dotted forms given together must both hold. */
function combine(filters: VariantableFilter[]): VariantableFilter {
  const wanted = new Set(filters);
  if (wanted.size === 0) return 'any';
  if (wanted.size === 1) return filters[0] as VariantableFilter;
  throw CatalogApiError.queryStructure(
    'option.variantable',
    'one value (nested and dotted forms disagree)',
    filters,
  );
}

function stringArray(raw: unknown, field: string): string[] {
  if (!Array.isArray(raw)) throw CatalogApiError.queryStructure(field, 'an array of strings', raw);
  return raw.map((item, i) => {
    if (typeof item !== 'string') throw CatalogApiError.queryStructure(`${field}[${i}]`, 'a string', item);
    return item;
  });
}

function unknownField(field: string, value: unknown, expected: string): CatalogApiError {
  const name = field.split('.').pop() ?? field;
  if (name.startsWith('$')) return CatalogApiError.unsupportedOperator(name, field);
  return CatalogApiError.queryStructure(field, expected, value);
}
