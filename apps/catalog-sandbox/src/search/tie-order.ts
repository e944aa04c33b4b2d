import type { StoredProduct } from '../products/stored-product.js';

/**
 * The order of records whose sort keys are equal. The spec promises none, and a store such as
 * MongoDB answers ties in any order from one query to the next, so by default the sandbox
 * shuffles them anew for every search request: a client that pages by offset through a run of
 * equal keys skips and repeats records here as it would in production. The shuffle is seeded
 * (`CATALOG_SANDBOX_SEARCH_TIE_SEED` and the account id), so a test run repeats exactly.
 * `searchTieOrder: creation` restores the kind order: insertion sequence ascending.
 */
export class TieOrder {
  #requests = 0;
  readonly #seed: number;

  constructor(seed: number, accountId: string) {
    this.#seed = mix(seed >>> 0, fnv1a(accountId));
  }

  /**
   * Reorders every run of records with equal sort keys (`sameKey` compares neighbours of the
   * already sorted list) by a permutation drawn for this request. Other records keep their place.
   */
  shuffleTies(sorted: StoredProduct[], sameKey: (a: StoredProduct, b: StoredProduct) => boolean): void {
    this.#requests += 1;
    const draw = mix(this.#seed, this.#requests);
    let start = 0;
    for (let i = 1; i <= sorted.length; i++) {
      const prev = sorted[i - 1] as StoredProduct;
      const current = sorted[i];
      if (current !== undefined && sameKey(prev, current)) continue;
      if (i - start > 1) {
        const run = sorted.slice(start, i);
        const keyed = run.map((product) => ({ product, key: mix(draw, product.seq) }));
        keyed.sort((a, b) => a.key - b.key || a.product.seq - b.product.seq);
        for (let j = 0; j < keyed.length; j++)
          sorted[start + j] = (keyed[j] as { product: StoredProduct }).product;
      }
      start = i;
    }
  }
}

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A 32-bit mix of two numbers (murmur3's finaliser over their combination). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b >>> 0, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
