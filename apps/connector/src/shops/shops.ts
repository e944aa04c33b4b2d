import type { ShopConfig } from '../platform/config/shop-config.js';

/** Reads the shops that installed the app themselves (the `shops` table), as served shops. */
export type InstalledShopLoader = () => Promise<ShopConfig[]>;

/** Told of a shop that joined, or whose settings changed (its catalog key, its mapping file). */
export type ShopChangeListener = (shop: ShopConfig) => void;

/** How often a miss (`findFresh`) may read the table again. */
const MISS_RELOAD_MS = 1_000;

/**
 * Why: the shops the connector serves, and each one's settings, in one place every feature asks:
 * the configured `CONNECTOR_SHOPS`, plus the shops that installed the app themselves (rows of
 * `shops`, read again on `refresh`: an install, a key set, another replica's install). A
 * configured shop wins over a row of the same domain. Holders of per-shop state (routes,
 * mappings) `watch` for shops that join or change at runtime.
 */
export class Shops {
  private installed: readonly ShopConfig[] = [];
  private combined: readonly ShopConfig[];
  private readonly listeners: ShopChangeListener[] = [];
  private loading: Promise<void> | null = null;
  /** One more read, queued behind `loading` for the callers that came while it ran. */
  private queued: Promise<void> | null = null;
  private lastMissReload = Number.NEGATIVE_INFINITY;
  /** The next miss read, when misses came within a second of the last one: they share it. */
  private nextMissRead: Promise<void> | null = null;

  constructor(
    readonly configured: readonly ShopConfig[],
    private readonly loadInstalled: InstalledShopLoader | null = null,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.combined = configured;
  }

  /** Every shop served now: configured first, then installed ones. */
  get all(): readonly ShopConfig[] {
    return this.combined;
  }

  /** The shop with this domain (any case), if the connector serves it. */
  find(domain: string): ShopConfig | undefined {
    const wanted = domain.toLowerCase();
    return this.combined.find((shop) => shop.domain === wanted);
  }

  /**
   * `find`, reading the installed shops again on a miss: another replica's install. The table is
   * read at most once a second for misses; a miss within a second of the last read waits for the
   * next one (shared by every miss meanwhile) rather than answering "not served": twenty shops
   * installing at another replica in one second each have their first webhook found here.
   */
  async findFresh(domain: string): Promise<ShopConfig | undefined> {
    const found = this.find(domain);
    if (found !== undefined || this.loadInstalled === null) return found;
    const waitMs = this.lastMissReload + MISS_RELOAD_MS - this.now();
    if (waitMs <= 0) {
      this.lastMissReload = this.now();
      await this.refresh();
    } else {
      this.nextMissRead ??= this.sleep(waitMs).then(() => {
        this.nextMissRead = null;
        this.lastMissReload = this.now();
        return this.refresh();
      });
      await this.nextMissRead;
    }
    return this.find(domain);
  }

  /**
   * Reads the installed shops again; listeners hear of each one that joined or changed. Resolves
   * once a read that began after this call has ended: a read already running may have begun
   * before the caller's own write (an install's row), so callers that come meanwhile share one
   * more read after it (two installs at once, or an install during the periodic read, each find
   * their shop).
   */
  refresh(): Promise<void> {
    if (this.loadInstalled === null) return Promise.resolve();
    if (this.loading !== null) {
      this.queued ??= this.loading
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.refresh();
        });
      return this.queued;
    }
    const load = this.loadInstalled;
    this.loading = (async () => {
      const configured = new Set(this.configured.map((shop) => shop.domain));
      const rows = (await load()).filter((shop) => !configured.has(shop.domain));
      const before = new Map(this.installed.map((shop) => [shop.domain, shop]));
      this.installed = rows;
      this.combined = [...this.configured, ...rows];
      for (const shop of rows) {
        const previous = before.get(shop.domain);
        if (previous === undefined || changed(previous, shop)) this.tell(shop);
      }
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** Calls `listener` for every shop that joins or changes from now on. */
  watch(listener: ShopChangeListener): void {
    this.listeners.push(listener);
  }

  private tell(shop: ShopConfig): void {
    for (const listener of this.listeners) listener(shop);
  }
}

function changed(a: ShopConfig, b: ShopConfig): boolean {
  return (
    a.mappingFile !== b.mappingFile ||
    a.catalog.apiKey.reveal() !== b.catalog.apiKey.reveal() ||
    a.catalog.apiKeyProblem !== b.catalog.apiKeyProblem
  );
}
