import { Injectable } from '@nestjs/common';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { PermanentJobError } from '../../platform/failures/job-error.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { PlannedWrite } from '../../product-sync/planned/planned-writes.repository.js';
import { ProductLocks } from '../../product-sync/product-locks.service.js';
import { ShopModes } from '../../shops/shop-modes.service.js';
import { Shops } from '../../shops/shops.js';
import { MetafieldDefinitions } from '../definitions/metafield-definitions.service.js';
import { PushRetryError, type PushSummary, WriteBackPusher } from './write-back-pusher.service.js';

const PRODUCT_ID = /^[1-9][0-9]{0,19}$/;

/** What `POST /admin/products/{id}/write-back` answers: the push's counts and, planned, its mutations. */
export interface PushNowResult extends Omit<PushSummary, 'planned'> {
  shop: string;
  productId: string;
  mode: 'live' | 'shadow';
  dryRun: boolean;
  /** The mutations a live push would send (dry run, or a shop in shadow); empty once sent. */
  planned: Array<Omit<PlannedWrite, 'supplierSku' | 'gaps'>>;
}

/**
 * Why: an operator runs one product's write-back now (issue 31), or with `dryRun` sees the
 * mutations it would send (variables, each target's value before and after) without sending or
 * storing anything. Same rules as the push job: the mapping must be checked, targets stopped by
 * a definition are left out, and it runs under the product's lock (busy: 409 `product_busy`).
 */
@Injectable()
export class PushNow {
  constructor(
    private readonly shops: Shops,
    private readonly modes: ShopModes,
    private readonly mappings: ShopMappings,
    private readonly definitions: MetafieldDefinitions,
    private readonly locks: ProductLocks,
    private readonly pusher: WriteBackPusher,
  ) {}

  async run(shopDomain: string, productId: string, dryRun: boolean): Promise<PushNowResult> {
    const shop = this.shops.find(shopDomain)?.domain;
    if (shop === undefined)
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop must be a shop this connector serves.', {
        parameter: 'shop',
      });
    if (!PRODUCT_ID.test(productId))
      throw new ConnectorError(
        ConnectorErrorCode.NOT_FOUND,
        `No product ${productId}: ids are Shopify product ids.`,
      );
    if (this.mappings.waitFor(shop) !== null)
      throw new ConnectorError(ConnectorErrorCode.NOT_READY, `The mapping of ${shop} is not checked yet.`, {
        shop,
      });
    const stopped = this.definitions.stopped(shop);
    const entries = (this.mappings.mapping(shop)?.writeBack ?? []).filter((e) => !stopped.has(e.path));
    const mode = await this.modes.modeOf(shop);
    const subject = { shop, productId };
    const summary = entries.length === 0 ? empty(dryRun) : await this.locked(subject, entries, dryRun);
    const planned = (summary.planned ?? []).map(({ supplierSku: _s, gaps: _g, ...write }) => write);
    const { planned: _p, ...counts } = summary;
    return { shop, productId, mode, dryRun, ...counts, planned };
  }

  private async locked(
    subject: { shop: string; productId: string },
    entries: Parameters<WriteBackPusher['push']>[1],
    dryRun: boolean,
  ): Promise<PushSummary> {
    const busy = async (): Promise<PushSummary> => {
      throw new ConnectorError(
        ConnectorErrorCode.PRODUCT_BUSY,
        `Product ${subject.productId} is being synced or pushed; try again.`,
        subject,
      );
    };
    try {
      return await this.locks.withLock(
        subject,
        () => this.pusher.push(subject, entries, null, undefined, dryRun),
        busy,
      );
    } catch (error) {
      if (error instanceof PushRetryError)
        throw new ConnectorError(ConnectorErrorCode.SHOPIFY_UNAVAILABLE, error.message, subject);
      if (error instanceof PermanentJobError)
        throw new ConnectorError(ConnectorErrorCode.WRITE_BACK_REJECTED, error.message, subject);
      throw error;
    }
  }
}

function empty(dryRun: boolean): PushSummary {
  return { written: 0, settled: 0, conflicts: 0, skipped: 0, failed: 0, ...(dryRun ? { planned: [] } : {}) };
}
