export type AdminApi = 'graphql' | 'rest';
export type AdminRequestOutcome = 'ok' | 'throttled' | 'rejected' | 'error';

/** One Admin API request (GraphQL or merchant REST) as the sandbox saw it. No token is kept. */
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

/** The Admin API request log of one shop, oldest first; tests count mutations through it. */
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
