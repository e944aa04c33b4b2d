/**
 * Why: what an Admin API client needs of the shops' tokens, so that the server (`ShopTokens`,
 * renewals stored under a row lock) and one-off commands (`OneOffShopTokens`) share the clients.
 */
export abstract class ShopTokenSource {
  /** The token to call the shop's Admin API with now; rejects with a `ShopAuthError` when it has none. */
  abstract accessToken(domain: string): Promise<string>;
  /** After Shopify answered 401 to `used`: a new token, or null when none can be had. */
  abstract afterUnauthorized(domain: string, used: string): Promise<string | null>;
}
