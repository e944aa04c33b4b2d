import { Injectable } from '@nestjs/common';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { MappingGapsRepository } from '../../product-sync/gaps/mapping-gaps.repository.js';
import { Shops } from '../../shops/shops.js';
import {
  DEFAULT_GAP_PAGE,
  type MappingGapPageDto,
  type MappingGapsQuery,
  mappingGapProductDto,
} from './mapping-gaps.dto.js';

/** Every reason a list names (a shop with more shows the commonest). */
const MAX_REASONS = 200;

/**
 * Why: the API's and the web view's list of a shop's mapping gaps are one read: the shop asked
 * for (or the only one; otherwise 400), every reason with its product count, and a page of the
 * products (filtered by one reason) with their titles and reasons in words.
 */
@Injectable()
export class MappingGapList {
  constructor(
    private readonly gaps: MappingGapsRepository,
    private readonly shops: Shops,
  ) {}

  async page(query: MappingGapsQuery): Promise<MappingGapPageDto> {
    const shop = this.shopOf(query.shop);
    const limit = query.limit ?? DEFAULT_GAP_PAGE;
    const offset = query.offset ?? 0;
    const reason = query.reason ?? null;
    const [[summary], page] = await Promise.all([
      this.gaps.summaries(MAX_REASONS, shop),
      this.gaps.page(shop, { reason, limit, offset }),
    ]);
    return {
      shop,
      products: summary?.products ?? 0,
      reasons: summary?.reasons ?? [],
      reason,
      items: page.items.map(mappingGapProductDto),
      total: page.total,
      limit,
      offset,
    };
  }

  /** The shop asked for, or the only one; else 400 naming `shop`. */
  private shopOf(shop: string | undefined): string {
    const found =
      shop === undefined || shop === ''
        ? this.shops.all.length === 1
          ? this.shops.all[0]
          : undefined
        : this.shops.find(shop);
    if (!found) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop must be a shop this connector serves.', {
        parameter: 'shop',
      });
    }
    return found.domain;
  }
}
