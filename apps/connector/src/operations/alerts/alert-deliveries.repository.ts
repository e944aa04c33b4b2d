import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { pruneInBatches } from '../../platform/reporting/retention-registry.service.js';
import type { AlertChange, AlertMemory } from './alert-debounce.js';
import { AlertDelivery, type AlertDeliveryState } from './alert-delivery.entity.js';
import { AlertShopState } from './alert-shop-state.entity.js';
import type { AlertTargetKind } from './alert-target.entity.js';

/** A shop as one look saw it: the overview's state and its reasons in words. */
export interface SeenShop {
  shop: string;
  state: string;
  cause: string;
  reasons: string[];
}

/** One attempt's outcome: the HTTP status (null: no answer) and the error in words. */
export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  delivered: boolean;
}

/** What the lists of deliveries can be narrowed to. */
export interface DeliveryFilter {
  shop?: string;
  state?: AlertDeliveryState;
}

/**
 * Why: the one owner of `alert_deliveries` and `alert_shop_states`. A change and its deliveries
 * are stored in one transaction that only lands while the shop's row still holds the state the
 * change is from: two replicas looking at once send it once, and a change is never marked sent
 * without its deliveries. Each attempt is recorded on its delivery.
 */
@Injectable()
export class AlertDeliveriesRepository {
  constructor(
    @InjectRepository(AlertDelivery) private readonly deliveries: Repository<AlertDelivery>,
    @InjectRepository(AlertShopState) private readonly states: Repository<AlertShopState>,
  ) {}

  /** Every shop's row: what the alerts last saw and sent. */
  shopStates(): Promise<AlertShopState[]> {
    return this.states.find({ order: { shop: 'ASC' } });
  }

  /** Stores a look at a shop that sends nothing; left alone if another look sent a change meanwhile. */
  async observe(seen: SeenShop, memory: AlertMemory, now: Date): Promise<void> {
    await this.states.query(
      `INSERT INTO ${this.statesTable} AS s
         (shop, seen_state, seen_cause, notified_state, pending_state, pending_since, checked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (shop) DO UPDATE SET seen_state = EXCLUDED.seen_state, seen_cause = EXCLUDED.seen_cause,
         pending_state = EXCLUDED.pending_state, pending_since = EXCLUDED.pending_since,
         checked_at = EXCLUDED.checked_at
       WHERE s.notified_state = EXCLUDED.notified_state`,
      [
        seen.shop,
        seen.state,
        seen.cause,
        memory.notifiedState,
        memory.pendingState,
        memory.pendingSince === null ? null : new Date(memory.pendingSince),
        now,
      ],
    );
  }

  /**
   * Marks `change` sent for the shop and stores one pending delivery per target, in one
   * transaction; resolves to the deliveries' ids, or null when the shop's row no longer holds the
   * state the change is from (another look sent it).
   */
  async recordChange(
    seen: SeenShop,
    change: AlertChange,
    targets: ReadonlyArray<{ id: string; label: string; kind: AlertTargetKind }>,
    now: Date,
  ): Promise<string[] | null> {
    return this.states.manager.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO ${this.statesTable} (shop, seen_state, seen_cause, notified_state, checked_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (shop) DO NOTHING`,
        [seen.shop, seen.state, seen.cause, change.from, now],
      );
      const [updated]: [unknown[], number] = await manager.query(
        `UPDATE ${this.statesTable}
            SET notified_state = $2, notified_at = $3, pending_state = NULL, pending_since = NULL,
                seen_state = $2, seen_cause = $4, checked_at = $3
          WHERE shop = $1 AND notified_state = $5
          RETURNING shop`,
        [seen.shop, change.to, now, seen.cause, change.from],
      );
      if (updated.length === 0) return null;
      const ids: string[] = [];
      for (const target of targets) {
        const rows: Array<{ id: string }> = await manager.query(
          `INSERT INTO ${this.deliveriesTable}
             (target_id, target_label, kind, shop, from_state, to_state, cause, reasons, changed_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text AS id`,
          [
            target.id,
            target.label,
            target.kind,
            seen.shop,
            change.from,
            change.to,
            seen.cause,
            JSON.stringify(seen.reasons),
            new Date(change.since),
            now,
          ],
        );
        ids.push(...rows.map((row) => row.id));
      }
      return ids;
    });
  }

  /** Deliveries still to make (never tried, or retrying), oldest first. */
  async pendingIds(limit: number): Promise<string[]> {
    const rows = await this.deliveries.find({
      where: { state: 'pending' },
      select: { id: true },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  get(id: string): Promise<AlertDelivery | null> {
    return this.deliveries.findOne({ where: { id } });
  }

  /** Records one attempt of a pending delivery (delivered: it is done). */
  async attempted(id: string, outcome: AttemptOutcome, at: Date): Promise<void> {
    await this.deliveries.query(
      `UPDATE ${this.deliveriesTable}
          SET attempts = attempts + 1, last_status = $2, last_error = $3, last_attempt_at = $4,
              state = CASE WHEN $5 THEN 'delivered' ELSE state END,
              delivered_at = CASE WHEN $5 THEN $4 ELSE delivered_at END
        WHERE id = $1 AND state = 'pending'`,
      [id, outcome.status, outcome.error, at, outcome.delivered],
    );
  }

  /** A pending delivery ends without being delivered: `failed` (attempts spent) or `cancelled` (its target went). */
  async end(id: string, state: 'failed' | 'cancelled'): Promise<void> {
    await this.deliveries.update({ id, state: 'pending' }, { state });
  }

  /** A failed delivery replayed from the failures inbox: pending again. */
  async reopen(id: string): Promise<boolean> {
    const result = await this.deliveries.update({ id, state: 'failed' }, { state: 'pending' });
    return (result.affected ?? 0) > 0;
  }

  /** The latest deliveries matching `filter`, newest first. */
  latest(filter: DeliveryFilter, limit: number): Promise<AlertDelivery[]> {
    return this.deliveries.find({
      where: {
        ...(filter.shop === undefined ? {} : { shop: filter.shop }),
        ...(filter.state === undefined ? {} : { state: filter.state }),
      },
      order: { id: 'DESC' },
      take: limit,
    });
  }

  /** Deliveries per state (the metrics' gauge). */
  async countsByState(): Promise<Array<{ state: AlertDeliveryState; count: number }>> {
    return this.deliveries.query(
      `SELECT state, count(*)::int AS count FROM ${this.deliveriesTable} GROUP BY state`,
    );
  }

  /** Retention: deletes the deliveries made before `before` that are not pending; how many went. */
  pruneBefore(before: Date): Promise<number> {
    return pruneInBatches(async (limit) => {
      const [, affected]: [unknown, number] = await this.deliveries.query(
        `DELETE FROM ${this.deliveriesTable} WHERE id IN (
           SELECT id FROM ${this.deliveriesTable} WHERE created_at < $1 AND state <> 'pending' LIMIT $2)`,
        [before, limit],
      );
      return affected;
    });
  }

  /** `shop/redact`: deletes the shop's deliveries and state; resolves to how many rows went. */
  async purgeShop(shop: string): Promise<number> {
    const deliveries = await this.deliveries.delete({ shop });
    const states = await this.states.delete({ shop });
    return (deliveries.affected ?? 0) + (states.affected ?? 0);
  }

  private get deliveriesTable(): string {
    return this.deliveries.metadata.tablePath;
  }

  private get statesTable(): string {
    return this.states.metadata.tablePath;
  }
}
