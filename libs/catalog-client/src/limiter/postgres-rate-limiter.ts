import type { Pool } from 'pg';
import { type Clock, SystemClock } from '#lib/clock';
import {
  checkBudget,
  DEFAULT_RATE_BUDGET,
  type GcraState,
  gcraPause,
  gcraTake,
  type RateBudget,
} from './gcra.js';
import { QueuedRateLimiter, type TakeResult } from './queued-rate-limiter.js';

export interface PostgresRateLimiterOptions extends Partial<RateBudget> {
  /** A pg pool; the caller owns it (and ends it). */
  pool: Pool;
  /** The budget's name: `apiKeyFingerprint(apiKey)`, never the key itself. */
  bucket: string;
  /** Schema of the `catalog_rate_buckets` table (created if missing). Default `public`. */
  schema?: string;
  /** For sleeping (and for "now" with `timeSource: 'clock'`). */
  clock?: Clock;
  /** Whose time the budget is computed on: PostgreSQL's (default) or the limiter's clock. */
  timeSource?: 'server' | 'clock';
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A rate budget shared by every process using the same PostgreSQL: one row per bucket in
 * `<schema>.catalog_rate_buckets`, read `FOR UPDATE` and updated in one transaction, so grants are
 * serialised across processes. The arithmetic is gcra.ts's.
 */
export class PostgresRateLimiter extends QueuedRateLimiter {
  private readonly pool: Pool;
  private readonly bucket: string;
  private readonly table: string;
  private readonly schema: string;
  private readonly budget: RateBudget;
  private readonly serverTime: boolean;
  private ready: Promise<void> | undefined;

  constructor(options: PostgresRateLimiterOptions) {
    super(options.clock ?? new SystemClock());
    const schema = options.schema ?? 'public';
    if (!IDENTIFIER.test(schema)) throw new RangeError(`invalid schema name "${schema}"`);
    this.pool = options.pool;
    this.bucket = options.bucket;
    this.schema = schema;
    this.table = `"${schema}".catalog_rate_buckets`;
    this.serverTime = (options.timeSource ?? 'server') === 'server';
    this.budget = checkBudget({
      ratePerSecond: options.ratePerSecond ?? DEFAULT_RATE_BUDGET.ratePerSecond,
      burst: options.burst ?? DEFAULT_RATE_BUDGET.burst,
    });
  }

  async take(now: number): Promise<TakeResult> {
    let result: TakeResult = { granted: true };
    await this.update(now, (state, at) => {
      const verdict = gcraTake(state, this.budget, at);
      if (!verdict.granted) {
        result = verdict;
        return null;
      }
      return verdict.state;
    });
    return result;
  }

  async storePause(now: number, ms: number): Promise<void> {
    await this.update(now, (state, at) => gcraPause(state, this.budget, at, ms));
  }

  /** Creates the schema and table if missing (once per instance; concurrent creators take turns). */
  ensureTable(): Promise<void> {
    this.ready ??= this.createTable().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createTable(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('catalog-client:catalog_rate_buckets'))");
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (
           bucket text PRIMARY KEY,
           tat double precision NOT NULL DEFAULT 0,
           paused_until double precision NOT NULL DEFAULT 0,
           updated_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Locks the bucket's row, applies `change` at the chosen time, writes the result if any. */
  private async update(
    now: number,
    change: (state: GcraState, at: number) => GcraState | null,
  ): Promise<void> {
    await this.ensureTable();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO ${this.table} (bucket) VALUES ($1) ON CONFLICT (bucket) DO NOTHING`, [
        this.bucket,
      ]);
      const { rows } = await client.query<{ tat: number; paused_until: number; now: number }>(
        `SELECT tat, paused_until, (extract(epoch FROM clock_timestamp()) * 1000)::double precision AS now
           FROM ${this.table} WHERE bucket = $1 FOR UPDATE`,
        [this.bucket],
      );
      const row = rows[0];
      if (!row) throw new Error('rate bucket row missing');
      const at = this.serverTime ? Math.floor(row.now) : now;
      const next = change({ tat: row.tat, pausedUntil: row.paused_until }, at);
      if (next) {
        await client.query(
          `UPDATE ${this.table} SET tat = $2, paused_until = $3, updated_at = now() WHERE bucket = $1`,
          [this.bucket, next.tat, next.pausedUntil],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
