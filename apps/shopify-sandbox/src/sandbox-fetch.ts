const SHOP_ORIGIN = /^https?:\/\/([a-zA-Z0-9][a-zA-Z0-9-_]*\.myshopify\.com)(?=[/?#]|$)/;

/**
 * A `fetch` that sends requests meant for `https://<shop>.myshopify.com/...` to the sandbox at
 * `sandboxUrl` instead, leaving other URLs alone. Shopify's clients always build `https://<shop>`
 * URLs: give them this (`customFetchApi`, or `setAbstractFetchFunc` of `@shopify/shopify-api`)
 * to run unchanged connector code against the sandbox. The access token still picks the shop;
 * the shop of the URL goes along in `X-Shopify-Shop-Domain` (the OAuth endpoints read it).
 */
export function sandboxFetch(sandboxUrl: string, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  const base = sandboxUrl.replace(/\/+$/, '');
  return (input, init) => {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    const shop = SHOP_ORIGIN.exec(url)?.[1];
    if (shop === undefined) return fetchImpl(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has('x-shopify-shop-domain')) headers.set('X-Shopify-Shop-Domain', shop);
    const target = url.replace(SHOP_ORIGIN, base);
    if (typeof input === 'string' || input instanceof URL) return fetchImpl(target, { ...init, headers });
    return fetchImpl(new Request(target, input), { ...init, headers });
  };
}
