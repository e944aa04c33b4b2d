/** Whether a shop's writes leave the connector (issue 31). */
export const SHOP_MODES = ['live', 'shadow'] as const;

/**
 * Why: `live` sends the catalog and Shopify writes the sync and the write-back decide on;
 * `shadow` runs everything the same way but records them as planned writes instead.
 */
export type ShopMode = (typeof SHOP_MODES)[number];
