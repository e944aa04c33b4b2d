/** `check-config`'s proof that a shop's token works: one tiny Admin query. */
export const CHECK_SHOP_QUERY = 'query ConnectorCheckShop { shop { myshopifyDomain } }';
