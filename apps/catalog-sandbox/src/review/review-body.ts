import { CatalogApiError } from '../http/catalog-api.error.js';

export interface ReviewRequest {
  approve: string[];
  reject: string[];
}

/** Reads `{approve?: [keys], reject?: [keys]}`: at least one key, none in both lists. */
export function parseReviewBody(body: unknown): ReviewRequest {
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const list = (field: 'approve' | 'reject'): string[] => {
    const value = input[field];
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((k) => typeof k !== 'string')) {
      throw CatalogApiError.validation(`"${field}" must be an array of attribute keys.`, { field });
    }
    if (new Set(value).size !== value.length) {
      throw CatalogApiError.validation(`"${field}" must not repeat a key.`, { field });
    }
    return [...(value as string[])];
  };
  const approve = list('approve');
  const reject = list('reject');
  if (approve.length + reject.length === 0) {
    throw CatalogApiError.validation('Give attribute keys in "approve" and/or "reject".', {
      field: 'approve',
    });
  }
  const both = approve.filter((k) => reject.includes(k));
  if (both.length > 0) {
    throw CatalogApiError.validation('A key cannot be approved and rejected at once.', {
      field: 'reject',
      keys: both,
    });
  }
  return { approve, reject };
}
