/**
 * The readiness probe's Admin query: the cheapest there is (1 point of the shop's bucket), named
 * so the request log shows what it is.
 */
export const SHOP_PING_QUERY = 'query ConnectorShopPing { shop { id } }';
