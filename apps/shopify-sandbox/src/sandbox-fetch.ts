const SHOP_ORIGIN = /^https?:\/\/[a-zA-Z0-9][a-zA-Z0-9-_]*\.myshopify\.com(?=[/?#]|$)/;

/**
 * A `fetch` that sends requests meant for `https://<shop>.myshopify.com/...` to the sandbox at
 * `sandboxUrl` instead, leaving other URLs alone. Shopify's clients always build `https://<shop>`
 * URLs: give them this (`customFetchApi`, or `setAbstractFetchFunc` of `@shopify/shopify-api`)
 * to run unchanged connector code against the sandbox. The access token still picks the shop.
 */
export function sandboxFetch(sandboxUrl: string, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  const base = sandboxUrl.replace(/\/+$/, '');
  return (input, init) => {
    if (typeof input === 'string' || input instanceof URL) {
      return fetchImpl(String(input).replace(SHOP_ORIGIN, base), init);
    }
    return fetchImpl(new Request(input.url.replace(SHOP_ORIGIN, base), input), init);
  };
}
