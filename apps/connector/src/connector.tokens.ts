// The composition root's seams: values `createConnector` is given (tests replace them) and hands
// to the features through `ConnectorWiringModule` (connector.module.ts). Configuration slices are
// classes (`platform/config/settings.ts`), not tokens.

/** A `fetch` for every shop's Admin API calls (tests: the Shopify sandbox's `sandboxFetch`), or null. */
export const SHOPIFY_FETCH = Symbol('SHOPIFY_FETCH');

/** Every shop's parsed mapping file (`ShopMappingFiles`), read by `createConnector` before the app. */
export const SHOP_MAPPING_FILES = Symbol('SHOP_MAPPING_FILES');
