import { Injectable } from '@nestjs/common';
import type { Blame, ProductRecord } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { ProductView } from '../products/product-view.js';
import { requireRecord } from '../products/record-lookup.js';
import type { ReviewRequest } from './review-body.js';

const REVIEWABLE: ReadonlySet<Blame> = new Set(['ENRICHMENT', 'ENRICHMENT_APPROVED', 'ENRICHMENT_REJECTED']);

/**
 * A reviewer's approval or rejection of enriched values (the spec's operation is "not shown").
 * Only the record's own values from enrichment can be reviewed (a reviewer judges AI content);
 * an approved value may later be rejected and the other way round. Values stay as they are;
 * `sources` go (the spec gives them with blame ENRICHMENT only). `updatedAt` changes only with
 * the `reviewTouchesUpdatedAt` switch.
 */
@Injectable()
export class ReviewService {
  constructor(private readonly clock: Clock) {}

  review(account: Account, skuId: string, request: ReviewRequest): ProductRecord {
    const product = requireRecord(account, skuId);
    const keys = [...request.approve, ...request.reject];
    for (const key of keys) if (!account.attributes.get(key)) throw CatalogApiError.unknownAttribute(key);
    const notEnriched = keys.filter((key) => {
      const blame = product.attributes.get(key)?.blame;
      return blame === undefined || !REVIEWABLE.has(blame);
    });
    if (notEnriched.length > 0) {
      throw CatalogApiError.validation(
        'Only values written by enrichment can be reviewed; these hold no enriched value on this record (a variant inherits its parent values: review them on the parent).',
        { keys: notEnriched },
      );
    }
    const mark = (key: string, blame: Blame) => {
      const stored = product.attributes.get(key);
      if (stored) product.attributes.set(key, { value: stored.value, blame });
    };
    for (const key of request.approve) mark(key, 'ENRICHMENT_APPROVED');
    for (const key of request.reject) mark(key, 'ENRICHMENT_REJECTED');
    if (account.behaviour.reviewTouchesUpdatedAt) {
      product.updatedAt = Math.max(this.clock.now(), product.updatedAt + 1);
    }
    return new ProductView(account).record(product);
  }
}
