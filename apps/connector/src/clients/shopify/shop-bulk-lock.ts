import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** First key of the per-shop bulk-read advisory locks (the second is the shop's hash). */
const LOCK_SPACE = 739_015;

/**
 * One bulk query per shop at a time, across workers and replicas: resync, reconciliation and
 * linking read a whole shop under this PostgreSQL advisory *try*-lock, held on its own session
 * while the read runs and released by PostgreSQL if the process dies. Shopify lets an app run
 * a few bulk queries per shop (five from 2026-01, one before); the connector keeps to one so
 * that two whole-shop reads never compete for the same bucket.
 */
@Injectable()
export class ShopBulkLock {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` holding the shop's lock, or `busy` (holding nothing) when another read has it. */
  async withLock<T>(shop: string, work: () => Promise<T>, busy: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let locked = false;
    try {
      await runner.connect();
      const rows: Array<{ locked: boolean }> = await runner.query(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
        [LOCK_SPACE, shop],
      );
      locked = rows[0]?.locked === true;
      if (locked) return await work();
    } finally {
      if (locked)
        await runner
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, shop])
          .catch(() => undefined);
      await runner.release();
    }
    return busy();
  }
}
