import { Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { withAdvisoryTryLock } from '../platform/database/advisory-lock.js';
import type { SyncSubject } from './apply/sync-subject.js';

/** First key of the connector's product-sync advisory locks (the second is the product's hash). */
const LOCK_SPACE = 739_014;

/**
 * Serialises work on one Shopify product across workers and replicas with a PostgreSQL advisory
 * *try*-lock: the lock is taken at once or not at all, so a job that cannot have it gives its
 * connection back immediately (the caller then delays the job). The lock is held on its session
 * while the work runs, and released by PostgreSQL itself if the process dies.
 */
@Injectable()
export class ProductLocks {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` holding the product's lock, or `busy` (without holding anything) when taken. */
  async withLock<T>(subject: SyncSubject, work: () => Promise<T>, busy: () => Promise<T>): Promise<T> {
    const key = `${subject.shop}/${subject.productId}`;
    return withAdvisoryTryLock(this.dataSource, LOCK_SPACE, key, work, busy);
  }
}

/** One `ProductLocks` for the sync and the write-back, which must not run on one product at once. */
@Module({ providers: [ProductLocks], exports: [ProductLocks] })
export class ProductLocksModule {}
