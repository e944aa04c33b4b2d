import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { SHOPIFY_FETCH } from '../../connector.tokens.js';
import { ResyncSettings } from '../../platform/config/settings.js';
import { jsonlLines } from './bulk-jsonl.js';
import { BulkOperationError, runBulkQuery } from './bulk-operation.js';
import { BulkResultError, bulkProducts } from './bulk-products.js';
import type { CanonicalProduct } from './canonical-product.js';
import { CanonicalReadError } from './canonical-product.reader.js';
import { BULK_PRODUCT_IDS_QUERY } from './documents/bulk-product-ids.query.js';
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
 * Reads every product of a shop through one bulk query (`BULK_PRODUCTS_QUERY`, or only their ids):
 * runs it, polls until it ends, and streams its JSONL into `onBatch` a batch at a time, never
 * holding the file. A failed, cancelled or expired operation (or a dead link, or a result
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

  /** Every product, as canonical products (`BULK_PRODUCTS_QUERY`), a batch at a time. */
  read(
    shop: string,
    onBatch: (products: CanonicalProduct[], snapshotAt: Date) => Promise<void>,
  ): Promise<BulkReadReport> {
    return this.run(shop, BULK_PRODUCTS_QUERY, async (lines, snapshotAt) => {
      for await (const batch of bulkProducts(lines, BULK_BATCH_SIZE)) await onBatch(batch, snapshotAt);
    });
  }

  /** Every product id (decimal digits, `BULK_PRODUCT_IDS_QUERY`), a batch at a time. */
  readIds(shop: string, onBatch: (productIds: string[]) => Promise<void>): Promise<BulkReadReport> {
    return this.run(shop, BULK_PRODUCT_IDS_QUERY, async (lines) => {
      let batch: string[] = [];
      for await (const line of lines) {
        batch.push(productIdOf(line));
        if (batch.length >= BULK_BATCH_SIZE) {
          await onBatch(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await onBatch(batch);
    });
  }

  /** Up to two operations of `query`, each result streamed into `consume`. */
  private async run(
    shop: string,
    query: string,
    consume: (lines: AsyncIterable<string>, snapshotAt: Date) => Promise<void>,
  ): Promise<BulkReadReport> {
    const attempts: BulkAttempt[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const snapshotAt = new Date(this.clock.now());
      let operationId: string | null = null;
      try {
        const result = await runBulkQuery(
          this.shopify.forShop(shop),
          query,
          this.clock,
          this.settings.bulkPollMs,
          (id) => {
            operationId = id;
          },
        );
        if (result.url !== null) await consume(await this.lines(result.operationId, result.url), snapshotAt);
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

  /** The result's lines as they download; a link that answers an error fails the attempt. */
  private async lines(operationId: string, url: string): Promise<AsyncIterable<string>> {
    const response = await this.download(url);
    if (!response.ok || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      throw new BulkOperationError(`download:${response.status}`, operationId);
    }
    return jsonlLines(response.body as unknown as AsyncIterable<Uint8Array>);
  }
}

/** A line of `BULK_PRODUCT_IDS_QUERY`'s result: the product's numeric id. */
function productIdOf(line: string): string {
  let id: unknown;
  try {
    id = (JSON.parse(line) as { legacyResourceId?: unknown }).legacyResourceId;
  } catch {
    throw new BulkResultError(`a line that is not JSON (${line.slice(0, 80)})`);
  }
  if (typeof id !== 'string' || !/^\d+$/.test(id)) throw new BulkResultError('a product line without its id');
  return id;
}

/** Why a bulk attempt failed in a way a new operation may mend; null for any other error. */
function bulkFailure(error: unknown): string | null {
  if (error instanceof BulkOperationError) return error.reason;
  if (error instanceof BulkResultError || error instanceof CanonicalReadError) return error.message;
  return null;
}
