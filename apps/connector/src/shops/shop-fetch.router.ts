import '@shopify/shopify-api/adapters/node';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';

type FetchFn = typeof fetch;

const routes = new Map<string, FetchFn>();
let installed = false;

function hostOf(input: Parameters<FetchFn>[0]): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(href).hostname.toLowerCase();
  } catch {
    return '';
  }
}

const dispatch: FetchFn = (input, init) => (routes.get(hostOf(input)) ?? globalThis.fetch)(input, init);

/**
 * Sends one shop's Admin API requests through its own `fetch` (a redirect to the Shopify
 * sandbox, or a test's `sandboxFetch`). `@shopify/shopify-api` has a single, process-wide fetch:
 * this installs a dispatcher there once, keyed by shop domain, so several connectors in one
 * process (tests) never steal each other's shops. Returns the function that removes the route.
 */
export function routeShopFetch(domain: string, fetchFn: FetchFn): () => void {
  if (!installed) {
    setAbstractFetchFunc(dispatch);
    installed = true;
  }
  const host = domain.toLowerCase();
  routes.set(host, fetchFn);
  return () => {
    if (routes.get(host) === fetchFn) routes.delete(host);
  };
}

/**
 * A fetch that sends `https://<shop>.myshopify.com/...` to `origin` instead (local stack), naming
 * the shop in `X-Shopify-Shop-Domain` (the sandbox's OAuth endpoints read it, as Shopify reads the host).
 */
export function originFetch(origin: string, base: FetchFn = globalThis.fetch): FetchFn {
  const target = origin.replace(/\/+$/, '');
  const rewrite = (href: string) => href.replace(/^https?:\/\/[^/?#]+/, target);
  return (input, init) => {
    const shop = hostOf(input);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (shop.endsWith('.myshopify.com') && !headers.has('x-shopify-shop-domain')) {
      headers.set('X-Shopify-Shop-Domain', shop);
    }
    if (typeof input === 'string' || input instanceof URL) {
      return base(rewrite(String(input)), { ...init, headers });
    }
    return base(new Request(rewrite(input.url), input), { ...init, headers });
  };
}
