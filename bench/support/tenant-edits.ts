// The merchants' steady edits of `tenants`: title changes spread over many shops at a fixed rate
// (open loop), each timed from the merchant API's answer until the shop's own catalog account
// holds it, read in-process (no `/v1` call).
import { sleep } from './figures.js';
import type { TenantShop, TenantsStack } from './tenants-stack.js';

/** One merchant edit and when its shop's account held it. */
export interface TenantEdit {
  shop: TenantShop;
  productId: number;
  seq: number;
  /** The part of the run it was sent in (`idle`, `duringResync`, `afterFaults`). */
  phase: string;
  /** performance.now() when the merchant API answered the save; when the record first held it. */
  savedAt: number | null;
  seenAt: number | null;
}

/** The title of a product at its `seq`th edit; the catalog's `name` follows it. */
export function tenantTitle(productId: number, seq: number): string {
  return `Tenant tee ${productId} #${seq}`;
}

/** The edit number a title carries, or -1 (not one of the benchmark's titles). */
export function tenantSeq(title: unknown): number {
  const match = typeof title === 'string' ? /^Tenant tee \d+ #(\d+)$/.exec(title) : null;
  return match ? Number(match[1]) : -1;
}

/** Reads the `name` a system's record of a shop's product holds now (undefined: no record). */
export type NameReader = (shop: TenantShop, productId: number) => unknown;

/**
 * The connector's reader: a product's own record (`<shop name>:product:<id>`) in the shop's
 * account, read from the sandbox's store in-process; the naive peer's writes `peer:product:<id>`
 * into accounts of its own (`accountOf`).
 */
export function recordNames(
  stack: TenantsStack,
  prefix: (shop: TenantShop) => string = (shop) => shop.name,
  accountOf: (shop: TenantShop) => string = (shop) => shop.account.id,
): NameReader {
  return (shop, productId) => {
    const store = stack.catalog.sandbox.accounts.require(accountOf(shop)).products;
    const record = store
      .bySupplierSku(`${prefix(shop)}:product:${productId}`)
      .find((r) => r.parentSkuId === null);
    return record?.attributes.get('name')?.value;
  };
}

/**
 * Sends one title change every `1000 / ratePerSecond` ms, round-robin over the shops (a product
 * of the shop picked in turn), while watching every open edit every 20 ms. `phase` labels the
 * edits from then on; `exclude` stops editing a shop (its app uninstalled: the merchant's edits
 * there are nobody's concern).
 */
export class SteadyEdits {
  readonly edits: TenantEdit[] = [];
  phase = 'idle';
  private readonly excluded = new Set<string>();
  private readonly saves: Array<Promise<void>> = [];
  private sending = false;
  private watching = true;
  private seq = 0;
  private turn = 0;
  private sender: Promise<void> | null = null;
  private readonly watcher: Promise<void>;
  private error: unknown = null;

  constructor(
    private readonly stack: TenantsStack,
    private readonly shops: readonly TenantShop[],
    private readonly products: ReadonlyMap<string, readonly number[]>,
    private readonly ratePerSecond: number,
    private readonly read: NameReader,
  ) {
    this.watcher = this.watch();
  }

  /** Starts sending (open loop). */
  start(): void {
    if (this.sending) return;
    this.sending = true;
    this.sender = this.send();
  }

  /** Stops sending and waits until every save was answered. */
  async stop(): Promise<void> {
    this.sending = false;
    await this.sender;
    await Promise.all(this.saves);
    if (this.error) throw this.error;
  }

  exclude(shop: TenantShop): void {
    this.excluded.add(shop.domain);
  }

  /** Waits until every edit matching `which` was seen, or `timeoutMs`; resolves with those still unseen. */
  async waitSeen(which: (edit: TenantEdit) => boolean, timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const open = this.edits.filter((e) => which(e) && e.seenAt === null).length;
      if (open === 0 || performance.now() > deadline) return open;
      await sleep(50);
    }
  }

  /** Sends until `count` more edits went out (for a part of fixed size, e.g. the idle one). */
  async sendCount(count: number): Promise<void> {
    const until = this.edits.length + count;
    this.start();
    while (this.edits.length < until) await sleep(10);
    await this.stop();
  }

  async close(): Promise<void> {
    this.sending = false;
    this.watching = false;
    await this.sender;
    await Promise.allSettled(this.saves);
    await this.watcher;
  }

  private async send(): Promise<void> {
    const spacingMs = 1000 / this.ratePerSecond;
    const t0 = performance.now();
    for (let i = 0; this.sending; i++) {
      const wait = i * spacingMs - (performance.now() - t0);
      if (wait > 1) await sleep(wait);
      if (!this.sending) return;
      const shop = this.nextShop();
      if (shop === undefined) return;
      const ids = this.products.get(shop.domain) ?? [];
      const productId = ids[Math.floor(this.turn / this.shops.length) % ids.length] as number;
      const edit: TenantEdit = {
        shop,
        productId,
        seq: ++this.seq,
        phase: this.phase,
        savedAt: null,
        seenAt: null,
      };
      this.edits.push(edit);
      this.saves.push(
        this.stack
          .merchant(shop, 'PUT', `products/${productId}.json`, {
            product: { id: productId, title: tenantTitle(productId, edit.seq) },
          })
          .then(
            () => {
              edit.savedAt = performance.now();
            },
            (error: unknown) => {
              this.error ??= error;
              this.sending = false;
            },
          ),
      );
    }
  }

  private nextShop(): TenantShop | undefined {
    for (let tries = 0; tries < this.shops.length; tries++) {
      const shop = this.shops[this.turn++ % this.shops.length] as TenantShop;
      if (!this.excluded.has(shop.domain)) return shop;
    }
    return undefined;
  }

  private async watch(): Promise<void> {
    while (this.watching) {
      for (const edit of this.edits) {
        if (edit.seenAt !== null) continue;
        if (tenantSeq(this.read(edit.shop, edit.productId)) >= edit.seq) edit.seenAt = performance.now();
      }
      await sleep(20);
    }
  }
}

/** Each edit's save-to-catalog latency in ms (null: never seen, or its save never answered). */
export function tenantLatencies(edits: readonly TenantEdit[]): Array<number | null> {
  return edits.map((e) =>
    e.savedAt === null || e.seenAt === null ? null : Math.max(0, e.seenAt - e.savedAt),
  );
}
