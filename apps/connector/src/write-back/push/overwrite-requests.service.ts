import { Injectable } from '@nestjs/common';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { PushEnqueuer } from './push-enqueuer.service.js';

const PRODUCT_ID = /^[1-9][0-9]{0,19}$/;

/** What an operator's overwrite request enqueued. */
export interface OverwriteQueued {
  shop: string;
  productId: string;
  /** The attributes allowed to overwrite the merchant's edits (empty: every write-back attribute). */
  attributes: string[];
  status: 'queued';
}

/**
 * Merchant edits win, unless the operator says so: enqueues one push of the product that may
 * write over the targets a merchant owns (for the given write-back attributes, or all). Once:
 * the targets it writes are the connector's again; a later merchant edit wins again.
 */
@Injectable()
export class OverwriteRequests {
  constructor(
    private readonly shops: Shops,
    private readonly mappings: ShopMappings,
    private readonly pushes: PushEnqueuer,
  ) {}

  async request(shop: string, productId: string, attributes: readonly string[]): Promise<OverwriteQueued> {
    const configured = this.shops.find(shop);
    if (!configured) throw badRequest('shop', `No shop ${shop} is configured.`);
    if (!PRODUCT_ID.test(productId)) throw badRequest('productId', 'productId must be a Shopify product id.');
    const known = new Set(
      (this.mappings.mapping(configured.domain)?.writeBack ?? []).map((e) => e.attribute),
    );
    const unknown = attributes.filter((a) => !known.has(a));
    if (unknown.length > 0)
      throw badRequest(
        'attribute',
        `Not a write-back attribute of ${configured.domain}: ${unknown.join(', ')}.`,
      );
    const list = [...new Set(attributes)].sort();
    await this.pushes.enqueue({ shop: configured.domain, productId, reason: 'overwrite', overwrite: list });
    return { shop: configured.domain, productId, attributes: list, status: 'queued' };
  }
}

function badRequest(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
