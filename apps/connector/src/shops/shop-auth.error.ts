/** Why a shop's token could not be had. */
export const ShopAuthErrorCode = {
  /** Shopify refused the app's credentials or refresh token, or the app is not installed. */
  NEEDS_REAUTH: 'shop_needs_reauth',
  /** The shop uninstalled the app (or its data was redacted): no call is made for it. */
  UNINSTALLED: 'shop_uninstalled',
  /** Shopify's token endpoint could not be reached or answered 5xx: tried again later. */
  TOKEN_UNAVAILABLE: 'shop_token_unavailable',
} as const;
export type ShopAuthErrorCode = (typeof ShopAuthErrorCode)[keyof typeof ShopAuthErrorCode];

/**
 * A shop without a usable token. `waitMs` set: the shop's jobs wait that long (delayed by the
 * job guard, no attempt spent, no failure row), as they do for a paused catalog key; a person
 * (install, corrected credentials) resumes them. Never holds a token.
 */
export class ShopAuthError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly code: ShopAuthErrorCode,
    message: string,
    readonly waitMs: number | null,
  ) {
    super(message);
    this.name = 'ShopAuthError';
    this.retryable = code === ShopAuthErrorCode.TOKEN_UNAVAILABLE;
  }
}
