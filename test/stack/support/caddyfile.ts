/** One `handle` block of a site: its path patterns (null: it takes every request) and its lines. */
export interface CaddyRoute {
  paths: string[] | null;
  /** Every line inside the block, trimmed, nested blocks included. */
  lines: string[];
}

/** One site block of a Caddyfile: its address, its `handle` blocks in order, and anything else. */
export interface CaddySite {
  address: string;
  routes: CaddyRoute[];
  /** Directives of the site outside any `handle` block (matcher definitions excepted). */
  otherDirectives: string[];
}

/**
 * Why: the compose test checks which of the connector's paths deploy/Caddyfile forwards without a
 * Caddy binary (none in CI). This reads the subset of the Caddyfile syntax that file uses: a global
 * options block, site blocks, `@name path ...` matchers, and `handle [@name] { ... }` blocks, which
 * Caddy runs mutually exclusively, the first that matches. Anything it does not understand lands in
 * `otherDirectives`, so a test can insist there is nothing else.
 */
export function caddySites(text: string): CaddySite[] {
  const lines = text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '');
  const sites: CaddySite[] = [];
  let depth = 0;
  let site: CaddySite | null = null;
  let route: CaddyRoute | null = null;
  const matchers = new Map<string, string[]>();
  for (const line of lines) {
    const opens = line.endsWith('{');
    const closes = line === '}';
    if (depth === 0 && opens) {
      const address = line.slice(0, -1).trim();
      site = address === '' ? null : { address, routes: [], otherDirectives: [] };
      if (site) sites.push(site);
      matchers.clear();
    } else if (depth === 1 && site && !closes) {
      const [word = '', ...args] = line.replace(/\{$/, '').trim().split(/\s+/);
      if (word.startsWith('@')) {
        if (args[0] !== 'path') site.otherDirectives.push(line);
        else matchers.set(word, args.slice(1));
      } else if (word === 'handle' && opens) {
        const matcher = args[0];
        const paths =
          matcher === undefined ? null : matcher.startsWith('@') ? (matchers.get(matcher) ?? []) : [matcher];
        route = { paths, lines: [] };
        site.routes.push(route);
      } else site.otherDirectives.push(line);
    } else if (depth >= 2 && route && !(closes && depth === 2)) {
      route.lines.push(line);
    }
    if (opens) depth += 1;
    if (closes) {
      depth -= 1;
      if (depth === 1) route = null;
    }
  }
  return sites;
}

/** The `handle` block of `site` that takes a request for `path`, or undefined (none: Caddy answers empty). */
export function routeFor(site: CaddySite, path: string): CaddyRoute | undefined {
  return site.routes.find((route) => route.paths === null || route.paths.some((p) => pathMatches(p, path)));
}

/** Caddy's `path` matcher: case-insensitive; `*` at the end matches a prefix, at the start a suffix. */
export function pathMatches(pattern: string, path: string): boolean {
  const [p, value] = [pattern.toLowerCase(), path.toLowerCase()];
  if (p === '*') return true;
  if (p.endsWith('*')) return value.startsWith(p.slice(0, -1));
  if (p.startsWith('*')) return value.endsWith(p.slice(1));
  return value === p;
}
