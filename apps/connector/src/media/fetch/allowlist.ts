/**
 * Where image bytes may be fetched from. Shopify serves product images from its CDN:
 * "Most asset URLs are rendered using the domain cdn.shopify.com. In certain cases [...] assets
 * are loaded using the storefront domain, in the format {shop}.myshopify.com/cdn"
 * (https://shopify.dev/docs/themes/best-practices/performance/platform, "Shopify CDN").
 */
export const SHOPIFY_CDN_HOSTS: readonly string[] = ['cdn.shopify.com'];

/** One allowed origin (and optionally a path prefix under it). */
export interface AllowedSource {
  /** `https:` (default) or `http:` (tests against a local sandbox only). */
  protocol: 'https:' | 'http:';
  /** Lower-case host name or IP literal; `*.example.com` allows any subdomain (not the apex). */
  host: string;
  /** Null: the protocol's default port only. */
  port: number | null;
  /** Null: any path. Otherwise the URL path must start with it (e.g. `/cdn/`). */
  pathPrefix: string | null;
}

/**
 * Parses one allowlist entry as configuration writes it: `cdn.shopify.com`,
 * `shop.myshopify.com/cdn/`, `*.example.com`, or an origin with scheme and port
 * (`http://127.0.0.1:4020`). Throws on anything else (a typo must fail at boot, not let
 * everything through).
 */
export function parseAllowedSource(entry: string): AllowedSource {
  const text = entry.trim();
  const withScheme = /^[a-z]+:\/\//i.test(text) ? text : `https://${text}`;
  const wildcard = /^([a-z]+:\/\/)\*\./i.exec(withScheme);
  let url: URL;
  try {
    url = new URL(wildcard ? withScheme.replace('*.', 'wildcard-placeholder.') : withScheme);
  } catch {
    throw new Error(`image host allowlist: "${entry}" is not a host or origin`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`image host allowlist: "${entry}" must be http or https`);
  if (url.username || url.password || url.search || url.hash)
    throw new Error(`image host allowlist: "${entry}" must not carry credentials, query or fragment`);
  const host = wildcard ? url.hostname.replace('wildcard-placeholder.', '*.') : url.hostname;
  if (host === '' || host === '*.') throw new Error(`image host allowlist: "${entry}" names no host`);
  return {
    protocol: url.protocol,
    host,
    port: url.port === '' ? null : Number(url.port),
    pathPrefix: url.pathname === '/' ? null : url.pathname,
  };
}

/** Parses every entry; see `parseAllowedSource`. */
export function parseAllowlist(entries: readonly string[]): AllowedSource[] {
  return entries.map(parseAllowedSource);
}

/**
 * The default allowlist for one shop: Shopify's CDN host, and the shop's own storefront domain
 * under `/cdn/` only.
 */
export function shopifyCdnAllowlist(shopDomain?: string): AllowedSource[] {
  const sources = SHOPIFY_CDN_HOSTS.map(parseAllowedSource);
  if (shopDomain) sources.push(parseAllowedSource(`https://${shopDomain}/cdn/`));
  return sources;
}

/** Whether a parsed URL is allowed by one of the sources. Credentials in the URL are never allowed. */
export function isAllowedUrl(url: URL, allowlist: readonly AllowedSource[]): boolean {
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = url.port === '' ? null : Number(url.port);
  return allowlist.some(
    (source) =>
      source.protocol === url.protocol &&
      hostMatches(source.host, host) &&
      source.port === port &&
      (source.pathPrefix === null || url.pathname.startsWith(source.pathPrefix)),
  );
}

function hostMatches(pattern: string, host: string): boolean {
  if (!pattern.startsWith('*.')) return pattern === host;
  const suffix = pattern.slice(1); // ".example.com"
  return host.endsWith(suffix) && host.length > suffix.length;
}
