import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { SHOPIFY_FETCH } from '../../connector.tokens.js';
import { ResyncSettings } from '../../platform/config/settings.js';
import { jsonlLines } from './bulk-jsonl.js';
import { BulkOperationError, runBulkQuery } from './bulk-operation.js';
import { BulkResultError, bulkProducts } from './bulk-products.js';
import type { CanonicalProduct } from './canonical-product.js';
import { CanonicalReadError } from './canonical-product.reader.js';
import { BULK_PRODUCTS_QUERY } from './documents/bulk-products.query.js';
import { ShopifyAdmin } from './shopify-admin.service.js';

/** Products handed over per call of a read's `onBatch`. */
export const BULK_BATCH_SIZE = 250;

/** One attempt of a bulk read: its operation (null if refused) and how it ended. */
export interface BulkAttempt {
  operationId: string | null;
  outcome: string;
}

/** What a whole-shop bulk read did: `ok` false means both attempts failed (read pages instead). */
export interface BulkReadReport {
  ok: boolean;
  attempts: BulkAttempt[];
}

/**
 * Reads every product of a shop through one bulk query (`BULK_PRODUCTS_QUERY`): runs it, polls
 * until it ends, and streams its JSONL into `onBatch` a batch of canonical products at a time,
 * never holding the file. A failed, cancelled or expired operation (or a dead link, or a result
 * the reader cannot follow) is tried once more with a new operation; after a second failure the
 * report says so and the caller reads pages. `snapshotAt` is the connector's time just before
 * the attempt's operation was asked for: a product edited after it may be newer than its line.
 * Admin API errors (network, token) are thrown as they are, for the caller's job to retry.
 * The caller holds `ShopBulkLock` around the read.
 */
@Injectable()
export class BulkProductReader {
  private readonly logger = new Logger('BulkProductReader');
  private readonly download: typeof fetch;

  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly clock: Clock,
    private readonly settings: ResyncSettings,
    @Inject(SHOPIFY_FETCH) fetchOverride: typeof fetch | null,
  ) {
    this.download = fetchOverride ?? ((input, init) => globalThis.fetch(input, init));
  }

  async read(
    shop: string,
    onBatch: (products: CanonicalProduct[], snapshotAt: Date) => Promise<void>,
  ): Promise<BulkReadReport> {
    const attempts: BulkAttempt[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const snapshotAt = new Date(this.clock.now());
      let operationId: string | null = null;
      try {
        const result = await runBulkQuery(
          this.shopify.forShop(shop),
          BULK_PRODUCTS_QUERY,
          this.clock,
          this.settings.bulkPollMs,
          (id) => {
            operationId = id;
          },
        );
        if (result.url !== null) await this.stream(result, (batch) => onBatch(batch, snapshotAt));
        attempts.push({ operationId: result.operationId, outcome: 'completed' });
        return { ok: true, attempts };
      } catch (error) {
        const reason = bulkFailure(error);
        if (reason === null) throw error;
        this.logger.warn(`${shop}: bulk read attempt ${attempt + 1} failed: ${reason}`);
        attempts.push({ operationId, outcome: reason });
      }
    }
    return { ok: false, attempts };
  }

  private async stream(
    result: { operationId: string; url: string | null },
    onBatch: (products: CanonicalProduct[]) => Promise<void>,
  ): Promise<void> {
    const response = await this.download(result.url as string);
    if (!response.ok || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      throw new BulkOperationError(`download:${response.status}`, result.operationId);
    }
    const lines = jsonlLines(response.body as unknown as AsyncIterable<Uint8Array>);
    for await (const batch of bulkProducts(lines, BULK_BATCH_SIZE)) await onBatch(batch);
  }
}

/** Why a bulk attempt failed in a way a new operation may mend; null for any other error. */
function bulkFailure(error: unknown): string | null {
  if (error instanceof BulkOperationError) return error.reason;
  if (error instanceof BulkResultError || error instanceof CanonicalReadError) return error.message;
  return null;
}
