/** Resource types whose global ids (`gid://shopify/<Type>/<id>`) the sandbox hands out. */
export type GidType =
  | 'Product'
  | 'ProductVariant'
  | 'ProductImage'
  | 'MediaImage'
  | 'ProductOption'
  | 'ProductOptionValue'
  | 'InventoryItem'
  | 'InventoryLevel'
  | 'Location'
  | 'Metafield'
  | 'MetafieldDefinition'
  | 'Collection'
  | 'Collect'
  | 'WebhookSubscription'
  | 'AppInstallation'
  | 'Shop';

export function toGid(type: GidType, id: number): string {
  return `gid://shopify/${type}/${id}`;
}

/** The numeric id of a gid of the expected type, or undefined when it is not one. */
export function parseGid(gid: string, type: GidType): number | undefined {
  const parsed = parseAnyGid(gid);
  return parsed?.type === type ? parsed.id : undefined;
}

export function parseAnyGid(gid: string): { type: string; id: number } | undefined {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d{1,16})(\?.*)?$/.exec(gid);
  if (!match) return undefined;
  return { type: match[1], id: Number(match[2]) };
}
