export type AdminApi = 'graphql' | 'rest' | 'oauth';
export type AdminRequestOutcome = 'ok' | 'throttled' | 'rejected' | 'error';

/**
 * One request to a shop as the sandbox saw it: Admin GraphQL, merchant REST (both also when
 * refused with 401 before reaching the shop) and token endpoint calls (`api: "oauth"`). No token
 * is kept.
 */
export interface AdminRequestRecord {
  id: number;
  at: string;
  api: AdminApi;
  method: string;
  path: string;
  /** GraphQL only: the operation's type and name, and the root fields it selected. */
  operationType: 'query' | 'mutation' | 'subscription' | null;
  operationName: string | null;
  rootFields: string[];
  variables: Record<string, unknown> | null;
  outcome: AdminRequestOutcome;
  httpStatus: number;
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
}

/** The outcome a status stands for: 2xx ok, 429 throttled, other 4xx rejected, 5xx error. */
export function outcomeOf(httpStatus: number): AdminRequestOutcome {
  if (httpStatus < 300) return 'ok';
  if (httpStatus === 429) return 'throttled';
  return httpStatus < 500 ? 'rejected' : 'error';
}

/** The request log of one shop, oldest first; tests count mutations through it. */
export class AdminRequestLog {
  private records: AdminRequestRecord[] = [];
  private nextId = 1;

  add(record: Omit<AdminRequestRecord, 'id'>): void {
    this.records.push({ id: this.nextId++, ...record });
  }

  list(): AdminRequestRecord[] {
    return [...this.records];
  }

  clear(): void {
    this.records = [];
  }
}
