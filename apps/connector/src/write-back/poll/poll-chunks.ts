import type { ProductRecord } from '#lib/catalog-contract';
import type { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { PushHistory } from '../push/push-history.service.js';
import type { EnrichmentOutbox, FoundRecord } from '../store/enrichment-outbox.repository.js';
import type { SearchProducts } from './poll-finished.js';
import { readProductSnapshots } from './product-snapshots.js';
import { awaitingReview, recordContentHash } from './review-watchlist.js';

/** What one poll of one shop needs to take its records through. */
export interface PollChunksInput {
  shop: string;
  pollId: string;
  /** The write-back attributes of the shop's mapping (hashes, the watchlist, snapshots). */
  attributes: readonly string[];
  /** When the poll began reading (the snapshots' `at`). */
  readAt: number;
  /** The poll's searches (trimmed to `attributes`): the snapshots' extra reads. */
  search: SearchProducts;
  /** Watched records leaving the watchlist whatever they hold (aged out). */
  leaving: ReadonlySet<string>;
}

/** The stores a chunk is taken through. */
export interface PollChunkStores {
  outbox: EnrichmentOutbox;
  map: SkuMapRepository;
  history: PushHistory;
}

/**
 * Why: one poll may read 20,000 changed records (a whole-shop resync's creates, its overlap
 * window read again). Holding them all until one commit made every such poll a burst of tens of
 * megabytes, and the connector's resident memory kept each burst's high-water mark. Each page of
 * records (500) is instead taken through the whole poll at once and let go: which are mapped,
 * which changed (`unseen`), which products a push could change (`PushHistory`), their snapshots,
 * then one commit of the page's seen hashes, push work and watchlist rows. Only the skuIds read
 * stay, so the watchlist and the re-walk do not read a record twice. The poller commits the
 * checkpoints after the last page: a poll that stops half-way (a crash, a catalog error) leaves
 * committed pages whose hashes are stored, so the next poll, reading them again from the old
 * checkpoint, finds no work twice, and their pending work is enqueued by that poll
 * (`pendingProducts`).
 */
export class PollChunks {
  /** Every skuId taken so far. */
  readonly read = new Set<string>();
  found = 0;
  unmapped = 0;
  changed = 0;
  products = 0;
  /** Searches the snapshots made. */
  calls = 0;

  constructor(
    private readonly input: PollChunksInput,
    private readonly stores: PollChunkStores,
  ) {}

  /** Takes one page of records through the poll and commits what it found. */
  async take(page: readonly ProductRecord[]): Promise<void> {
    const { shop, attributes } = this.input;
    const { outbox, map, history } = this.stores;
    const records = new Map(page.map((r) => [r.skuId, r]));
    if (records.size === 0) return;
    for (const skuId of records.keys()) {
      if (!this.read.has(skuId)) this.found += 1;
      this.read.add(skuId);
    }
    const products = await map.productsOfSkuIds(shop, [...records.keys()]);
    const found: FoundRecord[] = [];
    const watch: Array<{ skuId: string; productId: string; attributes: string[] }> = [];
    const unwatch: string[] = [];
    for (const record of records.values()) {
      const productId = products.get(record.skuId);
      if (productId === undefined) {
        this.unmapped += 1;
        continue;
      }
      found.push({ skuId: record.skuId, productId, contentHash: recordContentHash(record, attributes) });
      const pending = awaitingReview(record, attributes);
      if (pending.length > 0 && !this.input.leaving.has(record.skuId))
        watch.push({ skuId: record.skuId, productId, attributes: pending });
      else unwatch.push(record.skuId);
    }
    // The records each product given work has, for its push: it need not search again.
    const unseen = await outbox.unseen(shop, found);
    // Only products a push could change get work (`PushHistory`): a resync's new records do not.
    const changed = new Map<string, ProductRecord[]>();
    for (const f of found) {
      const record = records.get(f.skuId);
      if (record === undefined || !unseen.has(f.skuId)) continue;
      const list = changed.get(f.productId);
      if (list) list.push(record);
      else changed.set(f.productId, [record]);
    }
    const changedProducts = [...changed].map(([productId, list]) => ({ productId, records: list }));
    const idle = await history.idle(shop, changedProducts, attributes);
    const given = [...changed.keys()].filter((productId) => !idle.has(productId));
    const read = await readProductSnapshots(this.input.search, {
      products: given.length > 0 ? await map.skuIdsOfProducts(shop, given) : new Map(),
      read: records,
      attributes,
      at: this.input.readAt,
    });
    this.calls += read.calls;
    const committed = await outbox.commit({
      shop,
      pollId: this.input.pollId,
      checkpoints: {},
      found,
      watch,
      unwatch,
      snapshots: read.snapshots,
      idle,
    });
    this.changed += committed.changed.length;
    this.products += committed.products.length;
  }
}
