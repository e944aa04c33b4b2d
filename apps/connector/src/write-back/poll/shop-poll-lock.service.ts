import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** First key of the enrichment poll's advisory locks (the second is the shop's hash). */
const LOCK_SPACE = 739_015;

/**
 * Serialises the polls of one shop across workers and replicas (a scheduled poll and an
 * operator's, two replicas): each poll reads the checkpoint the previous one committed. A
 * PostgreSQL session lock, waited for, released by PostgreSQL if the process dies.
 */
@Injectable()
export class ShopPollLock {
  constructor(private readonly dataSource: DataSource) {}

  async withShop<T>(shop: string, work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_SPACE, shop]);
      try {
        return await work();
      } finally {
        await runner
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, shop])
          .catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }
}
