import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { SharedBreakerState } from '#lib/catalog-client';
import { CatalogBreakerRow } from './catalog-breaker.entity.js';

/** One account's shared breaker as read: its state and the generation it was read at. */
export interface SharedBreakerRecord {
  account: string;
  state: SharedBreakerState;
  generation: number;
}

/** Whether this replica may send the account's probe now; if not, when to ask again (epoch ms). */
export type ProbeClaim = { granted: true } | { granted: false; nextAt: number };

interface RawRow {
  account: string;
  state: 'open' | 'closed';
  reason: 'auth' | 'unavailable' | null;
  cooldown_ms: number;
  retry_at_ms: number | null;
  generation: string;
}

const COLUMNS = 'account, state, reason, cooldown_ms, retry_at_ms, generation';

function recordOf(row: RawRow): SharedBreakerRecord {
  const state: SharedBreakerState =
    row.state === 'open' && row.reason !== null && row.retry_at_ms !== null
      ? { state: 'open', reason: row.reason, retryAt: row.retry_at_ms, cooldownMs: row.cooldown_ms }
      : { state: 'closed' };
  return { account: row.account, state, generation: Number(row.generation) };
}

/**
 * The catalog accounts' breakers shared by every replica, in PostgreSQL: one row per account that
 * ever opened. A replica publishes its own breaker's changes (`open`, `close`), reads everyone's
 * (`all`), and claims the one probe of a cool-down (`claimProbe`), atomically, so the replicas
 * send one probe per cool-down between them.
 */
@Injectable()
export class CatalogBreakerRepository {
  constructor(@InjectRepository(CatalogBreakerRow) private readonly rows: Repository<CatalogBreakerRow>) {}

  async all(): Promise<SharedBreakerRecord[]> {
    const rows: RawRow[] = await this.rows.query(`SELECT ${COLUMNS} FROM ${this.table}`);
    return rows.map(recordOf);
  }

  /**
   * The account's breaker opened here. A failed probe (`afterProbe`) sets the next probe time
   * and cool-down; any other failure on an account already open keeps the later time and the
   * longer cool-down, and the probe's holder (a replica that had not seen the opening yet must
   * not cut short the cool-down a failed probe doubled).
   */
  async open(
    account: string,
    state: Extract<SharedBreakerState, { state: 'open' }>,
    afterProbe: boolean,
  ): Promise<SharedBreakerRecord> {
    const keep = `b.state = 'open' AND NOT $5::boolean`;
    const rows: RawRow[] = await this.rows.query(
      `INSERT INTO ${this.table} AS b (account, state, reason, cooldown_ms, retry_at_ms, probe_until_ms)
       VALUES ($1, 'open', $2, $3, $4, 0)
       ON CONFLICT (account) DO UPDATE SET
         state = 'open', reason = EXCLUDED.reason,
         cooldown_ms = CASE WHEN ${keep} THEN GREATEST(b.cooldown_ms, EXCLUDED.cooldown_ms) ELSE EXCLUDED.cooldown_ms END,
         retry_at_ms = CASE WHEN ${keep} THEN GREATEST(b.retry_at_ms, EXCLUDED.retry_at_ms) ELSE EXCLUDED.retry_at_ms END,
         probe_until_ms = CASE WHEN ${keep} THEN b.probe_until_ms ELSE 0 END,
         generation = b.generation + 1, updated_at = now()
       RETURNING ${COLUMNS}`,
      [account, state.reason, state.cooldownMs, state.retryAt, afterProbe],
    );
    const row = rows[0];
    if (!row) throw new Error(`The breaker of ${account} was not stored`);
    return recordOf(row);
  }

  /** A probe here succeeded: closed for every replica. Null when it was not open. */
  async close(account: string): Promise<SharedBreakerRecord | null> {
    const [rows]: [RawRow[], number] = await this.rows.query(
      `UPDATE ${this.table} SET state = 'closed', reason = NULL, cooldown_ms = 0, retry_at_ms = NULL,
              probe_until_ms = 0, generation = generation + 1, updated_at = now()
        WHERE account = $1 AND state = 'open'
       RETURNING ${COLUMNS}`,
      [account],
    );
    const row = rows[0];
    return row ? recordOf(row) : null;
  }

  /**
   * Takes the account's probe for `leaseMs` when its cool-down has ended and nobody holds it.
   * Granted too when no replica knows it open (no row, or closed): the caller's own opening,
   * not yet stored, or one another replica's probe has just closed (a probe of its own is cheap).
   */
  async claimProbe(account: string, nowMs: number, leaseMs: number): Promise<ProbeClaim> {
    const [claimed]: [unknown[], number] = await this.rows.query(
      `UPDATE ${this.table} SET probe_until_ms = $2::double precision + $3::double precision
        WHERE account = $1 AND state = 'open' AND retry_at_ms <= $2 AND probe_until_ms <= $2
       RETURNING account`,
      [account, nowMs, leaseMs],
    );
    if (claimed.length === 1) return { granted: true };
    const rows: Array<{ state: string; retry_at_ms: number | null; probe_until_ms: number }> =
      await this.rows.query(
        `SELECT state, retry_at_ms, probe_until_ms FROM ${this.table} WHERE account = $1`,
        [account],
      );
    const row = rows[0];
    if (row?.state !== 'open') return { granted: true };
    return { granted: false, nextAt: Math.max(row.retry_at_ms ?? nowMs, row.probe_until_ms) };
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}
