import { CatalogErrorCode, type PaginationResponse } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { isPlainObject } from './json-shape.js';

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface PaginationRules {
  defaultLimit: number;
  maxLimit: number;
}

/**
 * Reads `pagination: {limit, offset}`: non-negative integers (offset 0-based), each optional.
 * A limit above the maximum is pagination_limit_exceeded; anything else off-shape is
 * invalid_query_structure.
 */
export function parsePagination(raw: unknown, rules: PaginationRules): PageRequest {
  if (raw === undefined || raw === null) return { limit: rules.defaultLimit, offset: 0 };
  if (!isPlainObject(raw))
    throw CatalogApiError.queryStructure('pagination', 'an object {limit, offset}', raw);
  for (const [name, value] of Object.entries(raw)) {
    if (name !== 'limit' && name !== 'offset') {
      throw CatalogApiError.queryStructure(`pagination.${name}`, 'limit or offset', value);
    }
  }
  const limit = readCount(raw.limit, 'pagination.limit') ?? rules.defaultLimit;
  const offset = readCount(raw.offset, 'pagination.offset') ?? 0;
  if (limit > rules.maxLimit) {
    throw new CatalogApiError(
      CatalogErrorCode.PAGINATION_LIMIT_EXCEEDED,
      `pagination.limit ${limit} is above the maximum of ${rules.maxLimit}.`,
      {
        details: { requested_limit: limit, max_limit: rules.maxLimit },
        suggestion: `Request at most ${rules.maxLimit} items per page and page with offset.`,
      },
    );
  }
  return { limit, offset };
}

function readCount(raw: unknown, field: string): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0) {
    throw CatalogApiError.queryStructure(field, 'a non-negative integer', raw);
  }
  return raw;
}

/** One page of already ordered matches, with the response's pagination block. */
export function pageOf<T>(
  matches: readonly T[],
  page: PageRequest,
): { items: T[]; pagination: PaginationResponse } {
  const items = matches.slice(page.offset, page.offset + page.limit);
  return {
    items,
    pagination: {
      limit: page.limit,
      offset: page.offset,
      total: matches.length,
      hasMore: page.offset + items.length < matches.length,
    },
  };
}
