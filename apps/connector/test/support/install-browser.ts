import type { ConnectorHarness } from './connector-harness.js';

// The library refuses OAuth requests from bots (`isbot`): the merchant uses a browser.
export const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
};

/**
 * The merchant's browser through an install against a Shopify sandbox that approves at once:
 * `/auth/shopify` (the state cookie), the shop's authorize page, and the callback URL it
 * redirects to (not yet followed).
 */
export async function authorizeInstall(
  h: ConnectorHarness,
  domain: string,
  shopifyFetch: typeof fetch,
): Promise<{ callback: URL; cookie: string }> {
  const begun = await fetch(`${h.url}/auth/shopify?shop=${domain}`, { redirect: 'manual', headers: BROWSER });
  if (begun.status !== 302) throw new Error(`/auth/shopify answered ${begun.status}: ${await begun.text()}`);
  const cookie = begun.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const approved = await shopifyFetch(begun.headers.get('location') as string, {
    redirect: 'manual',
    headers: BROWSER,
  });
  if (approved.status !== 302) throw new Error(`the authorize page answered ${approved.status}`);
  return { callback: new URL(approved.headers.get('location') as string), cookie };
}

/** Follows the callback with the state cookie. */
export function landInstall(url: URL, cookie: string): Promise<Response> {
  return fetch(url, { headers: { ...BROWSER, cookie } });
}
