// What `tenants` reads from the connector's admin API at the end: whose failures opened, and how
// the overview rates each shop (the faulty ones, and any healthy one it does not call healthy).
import { round } from './figures.js';
import type { TenantShop, TenantsStack } from './tenants-stack.js';

/** The part of a failure (`GET /admin/failures`) the benchmark reads. */
interface Failure {
  shop: string;
  jobKind: string;
  state: string;
  error: { code: string };
}

/** The part of a shop on `GET /admin/overview` the benchmark reads. */
interface ShopOverview {
  shop: string;
  state: string;
  reasons: string[];
  authState: string;
  breaker: string;
  backlog: number;
  openFailures: Record<string, number>;
}

/** Every page of a paged admin list (`items` or `shops`, `total`), 500 at a time. */
async function allPages<T>(stack: TenantsStack, path: string, key: 'items' | 'shops'): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += 500) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await stack.admin<Record<string, unknown> & { total: number }>(
      'GET',
      `${path}${sep}limit=500&offset=${offset}`,
    );
    all.push(...((page[key] as T[]) ?? []));
    if (all.length >= page.total || (page[key] as T[]).length === 0) return all;
  }
}

/** The reasons of `shops`, numbers replaced by `n` so that one cause counts once, by how many shops give each. */
function countReasons(shops: readonly ShopOverview[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const shop of shops) {
    for (const reason of new Set(shop.reasons.map((r) => r.replace(/\d+/g, 'n')))) {
      counts[reason] = (counts[reason] ?? 0) + 1;
    }
  }
  return counts;
}

/** Failures (every state) counted by shop, job kind and error code. */
function tally(failures: readonly Failure[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of failures) {
    const key = `${f.jobKind} ${f.error.code} (${f.state})`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * The faults' figures: the failures (every state) of the faulty shops and of the others, the
 * overview's state of each faulty shop and of every healthy shop it does not call healthy, and
 * how long the overview of every shop took to answer.
 */
export async function faultFigures(
  stack: TenantsStack,
  shops: { healthy(shop: TenantShop): boolean; revoked: TenantShop; uninstalled: TenantShop },
) {
  const failures = await allPages<Failure>(stack, '/admin/failures', 'items');
  const healthyDomains = new Set(stack.shops.filter((s) => shops.healthy(s)).map((s) => s.domain));
  const ofShop = (shop: TenantShop) => failures.filter((f) => f.shop === shop.domain);
  const healthyFailures = failures.filter((f) => healthyDomains.has(f.shop));
  const started = performance.now();
  const overview = await allPages<ShopOverview>(stack, '/admin/overview', 'shops');
  const overviewMs = performance.now() - started;
  const brief = (entry: ShopOverview | undefined) =>
    entry === undefined
      ? null
      : {
          state: entry.state,
          authState: entry.authState,
          breaker: entry.breaker,
          backlog: entry.backlog,
          openFailures: entry.openFailures,
          reasons: entry.reasons,
        };
  const notHealthy = overview.filter((o) => healthyDomains.has(o.shop) && o.state !== 'healthy');
  return {
    failures: {
      faultyShops: ofShop(shops.revoked).length + ofShop(shops.uninstalled).length,
      healthyShops: healthyFailures.length,
      healthyShopsOpen: healthyFailures.filter((f) => f.state === 'open').length,
      revokedShop: tally(ofShop(shops.revoked)),
      uninstalledShop: tally(ofShop(shops.uninstalled)),
      healthyShopsWithFailures: new Set(healthyFailures.map((f) => f.shop)).size,
      healthyShopFailures: tally(healthyFailures),
    },
    overview: {
      answerMs: round(overviewMs, 0),
      shops: overview.length,
      revokedShop: brief(overview.find((o) => o.shop === shops.revoked.domain)),
      uninstalledShop: brief(overview.find((o) => o.shop === shops.uninstalled.domain)),
      healthyShopsNotHealthy: notHealthy.length,
      // The first few, with why: enough to see a pattern without a 200-line JSON.
      notHealthyExamples: notHealthy.slice(0, 5).map((o) => ({ shop: o.shop, ...brief(o) })),
      // Why, counted: each reason's words with the numbers taken out, and how many healthy shops give it.
      notHealthyReasons: countReasons(notHealthy),
    },
  };
}
