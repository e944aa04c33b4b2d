import { isCatalogClientError } from '#lib/catalog-client';
import type { Clock } from '#lib/clock';
import { CatalogKeyMissingError } from '../../clients/catalog/catalog-key-missing.error.js';
import { ShopifyAdminError } from '../../clients/shopify/shopify-admin.error.js';
import { MappingError } from '../../mapping/index.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { catalogUnavailable } from './catalog-unavailable.js';

/**
 * Why: the mapping routes (`mapping/draft`, `mapping/evaluation`) read the shop and the catalog
 * account on the operator's behalf, so what stops them is said as the operator mends it, never
 * a 500: a mapping the account refuses is a 400 listing each problem (`details.problems`); a
 * shop with no catalog key yet a 400 naming the route that sets it; a catalog that cannot be
 * read a 503 `catalog_unavailable`; a Shopify read that fails a 503 `shopify_unavailable` with
 * Shopify's words (a revoked token, a missing scope). Anything else is thrown on.
 */
export function mappingSetupError(clock: Clock): (error: unknown) => never {
  const breaker = catalogUnavailable(clock);
  return (error: unknown) => {
    if (error instanceof ConnectorError) throw error;
    if (error instanceof MappingError) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, error.message, {
        parameter: 'mapping',
        problems: error.problems.map((p) => ({ ...p })),
      });
    }
    if (error instanceof CatalogKeyMissingError)
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, error.message, { shop: error.shop });
    if (error instanceof ShopifyAdminError) {
      throw new ConnectorError(
        ConnectorErrorCode.SHOPIFY_UNAVAILABLE,
        `Shopify's Admin API could not be read: ${error.message} (${error.code})`,
        { shopifyCode: error.code },
      );
    }
    if (isCatalogClientError(error)) {
      breaker(error);
      throw new ConnectorError(
        ConnectorErrorCode.CATALOG_UNAVAILABLE,
        `The catalog account could not be read: ${error.message} (${error.code})`,
        { catalogCode: error.code },
      );
    }
    throw error;
  };
}
