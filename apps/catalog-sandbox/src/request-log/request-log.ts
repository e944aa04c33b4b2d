export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** Epoch ms when the request arrived. */
  time: number;
  durationMs: number;
  /** SHA-256 (hex) of the raw request body, or null without a body. */
  bodyDigest: string | null;
  apiKeyId: string | null;
}

export interface RequestLogQuery {
  method?: string;
  /** Exact path, or a prefix when it ends in `*`. */
  path?: string;
  status?: number;
  since?: number;
  limit?: number;
}

/** The calls made to one account's `/v1` API, oldest first, capped to the newest `capacity`. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  constructor(private readonly capacity = 50_000) {}

  record(entry: Omit<RequestLogEntry, 'seq'>): void {
    this.seq += 1;
    this.entries.push({ seq: this.seq, ...entry });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  query(q: RequestLogQuery): { total: number; entries: RequestLogEntry[] } {
    const method = q.method?.toUpperCase();
    const prefix = q.path?.endsWith('*') ? q.path.slice(0, -1) : undefined;
    const matches = this.entries.filter(
      (e) =>
        (method === undefined || e.method === method) &&
        (q.path === undefined || (prefix !== undefined ? e.path.startsWith(prefix) : e.path === q.path)) &&
        (q.status === undefined || e.status === q.status) &&
        (q.since === undefined || e.time >= q.since),
    );
    return { total: matches.length, entries: q.limit ? matches.slice(-q.limit) : matches };
  }

  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }
}
