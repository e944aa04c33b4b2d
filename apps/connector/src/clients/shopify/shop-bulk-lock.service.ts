import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { withAdvisoryTryLock } from '../../platform/database/advisory-lock.js';

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
    return withAdvisoryTryLock(this.dataSource, LOCK_SPACE, shop, work, busy);
  }
}
