import type { FailureState } from '../../platform/failures/failure.entity.js';
import type { FailureFilter } from '../../platform/failures/failures.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';

const STATES: readonly FailureState[] = ['open', 'replayed', 'dismissed', 'resolved'];
const FAILURE_ID = /^[1-9]\d{0,18}$/;
const BIGINT_MAX = 2n ** 63n - 1n;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

type Query = Record<string, unknown>;

/**
 * The failures inbox's query parameters (`shop`, `jobKind`, `state`, `subject`; `limit`,
 * `offset`), validated: a bad one answers 400 `bad_request` naming the parameter.
 */
export function failureFilterOf(query: Query): FailureFilter {
  const known = new Set(['shop', 'jobKind', 'state', 'subject', 'limit', 'offset']);
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw invalid(unknown[0] as string, `Unknown query parameter ${unknown.join(', ')}.`);
  }
  const state = text(query, 'state');
  if (state !== undefined && !(STATES as readonly string[]).includes(state)) {
    throw invalid('state', `state must be one of ${STATES.join(', ')}.`);
  }
  return {
    shop: text(query, 'shop')?.toLowerCase(),
    jobKind: text(query, 'jobKind'),
    state: state as FailureState | undefined,
    subjectKey: text(query, 'subject'),
  };
}

/** `limit` (1..500, default 50) and `offset` (default 0). */
export function pageOf(query: Query): { limit: number; offset: number } {
  return {
    limit: integer(query, 'limit', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
    offset: integer(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The failures a bulk dismiss names: explicit ids, or a filter over the open ones and a limit. */
export type DismissTargets = { ids: string[] } | { filter: FailureFilter; limit: number };

/**
 * `POST /admin/failures/dismiss`'s JSON body: `{ids: [..]}` (1..500 failure ids), or a filter
 * like the inbox's (`shop`, `jobKind`, `subject`, `state` only `open`, `limit`), never both.
 */
export function dismissTargetsOf(body: Record<string, unknown>): DismissTargets {
  if (body.ids !== undefined) {
    const extra = Object.keys(body).filter((name) => name !== 'ids');
    if (extra.length > 0) throw invalid(extra[0] as string, 'Give either ids or a filter, not both.');
    const ids = body.ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_PAGE_SIZE) {
      throw invalid('ids', `ids must be a list of 1 to ${MAX_PAGE_SIZE} failure ids.`);
    }
    for (const id of ids) {
      if (typeof id !== 'string' || !FAILURE_ID.test(id) || BigInt(id) > BIGINT_MAX) {
        throw invalid('ids', 'Each id must be a failure id (a positive integer, as a string).');
      }
    }
    return { ids: [...new Set(ids as string[])] };
  }
  const query = Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, typeof value === 'number' ? String(value) : value]),
  );
  if (query.offset !== undefined) throw invalid('offset', 'A dismiss takes no offset.');
  const filter = failureFilterOf(query);
  if (filter.state !== undefined && filter.state !== 'open') {
    throw invalid('state', 'Only open failures can be dismissed.');
  }
  if (filter.shop === undefined && filter.jobKind === undefined && filter.subjectKey === undefined) {
    throw invalid('ids', 'Name the failures: ids, or at least one of shop, jobKind, subject.');
  }
  return { filter: { ...filter, state: 'open' }, limit: pageOf(query).limit };
}

/** A failure id from the path; anything but a positive integer is a 404, never a database error. */
export function failureIdOf(id: string): string {
  if (!FAILURE_ID.test(id) || BigInt(id) > BIGINT_MAX) throw notFound(id);
  return id;
}

export function notFound(id: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No failure ${id}.`);
}

function text(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > 500) {
    throw invalid(name, `${name} must be given once, as non-empty text.`);
  }
  return value;
}

function integer(query: Query, name: string, fallback: number, min: number, max: number): number {
  const value = text(query, name);
  if (value === undefined) return fallback;
  const number = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw invalid(name, `${name} must be an integer from ${min} to ${max}.`);
  }
  return number;
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
