/** What the overview knows of a shop's mapping gaps (`mapping_gaps`, `product_sync_state`). */
export interface MappingGapFacts {
  /** Products the mapping cannot fully map (their last plan left a value out, or enrichment will fail). */
  products: number;
  /** Products the shop's syncs know and Shopify has not deleted. */
  knownProducts: number;
  /** The share (0 to 1) above which the shop is degraded (`CONNECTOR_MAPPING_GAP_DEGRADED_SHARE`). */
  degradedShare: number;
  /** The reason most of them share, and how many; null when none. */
  topReason: { reason: string; products: number } | null;
  /** How many different reasons there are. */
  reasonCount: number;
}

/**
 * Why: products the mapping cannot enrich are work that silently does not get through; above a
 * share of the shop's products (10 % by default) the shop is `degraded`, with the count, the
 * share and the commonest reason in words. Null when the share is at or below it. The share is of
 * the products the syncs know (never fewer than those with gaps), so it is never better than the
 * evidence.
 */
export function mappingGapReason(facts: MappingGapFacts): string | null {
  if (facts.products === 0) return null;
  const known = Math.max(facts.knownProducts, facts.products);
  const share = facts.products / known;
  if (share <= facts.degradedShare) return null;
  const top = facts.topReason;
  const others =
    facts.reasonCount > 1
      ? ` (and ${facts.reasonCount - 1} other reason${facts.reasonCount === 2 ? '' : 's'})`
      : '';
  return `${facts.products} of ${known} products cannot be fully enriched (${percent(share)}, more than ${percent(facts.degradedShare)})${
    top ? `: ${products(top.products)}: ${top.reason}${others}` : ''
  }`;
}

/** "1 product", "12 products". */
export function products(count: number): string {
  return `${count} product${count === 1 ? '' : 's'}`;
}

/** A share as a percentage, one decimal under 10 % ("0.5 %", "30 %"). */
export function percent(share: number): string {
  const value = share * 100;
  return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} %`;
}
