import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import type { ShopMode } from '../platform/config/shop-mode.js';
import { ShopModesRepository } from './shop-modes.repository.js';
import { Shops } from './shops.js';

/** A shop's mode as the operator sees it: the mode, and whether configuration pins it. */
export interface ShopModeState {
  mode: ShopMode;
  pinned: boolean;
}

/** Why `set` refused: the shop is not served, or its configuration pins its mode. */
export class ShopModeRefused extends Error {
  constructor(
    readonly problem: 'unknown' | 'pinned',
    message: string,
  ) {
    super(message);
  }
}

/**
 * How long a replica trusts a `live` it read (ms). Only `live` is kept: a switch to `live` made on
 * another replica is seen at once (a `shadow` is read again at every decision, so a shop going
 * live never plans what it should send), a switch to `shadow` within this time.
 */
export const LIVE_MODE_TTL_MS = 1_000;

/**
 * Why: each shop is `live` or `shadow` (issue 31), and every feature that would send a write asks
 * here. The mode is the configuration's pin (`CONNECTOR_SHOP_<KEY>_MODE`), else the stored one
 * (`shop_modes`, switched by the operator; `InstalledShopDirectory.join` gives a shop that
 * installs the app `CONNECTOR_NEW_SHOP_MODE`), else `live`: configured shops keep sending their
 * writes. A `live` read is kept for `LIVE_MODE_TTL_MS` (the mode is asked at every planned-write
 * decision, most shops are live); a switch on this replica drops it at once.
 */
@Injectable()
export class ShopModes {
  private readonly live = new Map<string, number>();

  constructor(
    private readonly shops: Shops,
    private readonly rows: ShopModesRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The shop's mode now: its pin, a `live` read less than `LIVE_MODE_TTL_MS` ago, else the table's
   * (only a served shop's `live` is kept: an installing shop gets its mode stored before it is).
   */
  async modeOf(shop: string): Promise<ShopMode> {
    const served = this.shops.find(shop);
    if (served?.modePin !== undefined) return served.modePin;
    const key = shop.toLowerCase();
    if (served !== undefined && this.clock.now() < (this.live.get(key) ?? 0)) return 'live';
    const mode = (await this.rows.get(key)) ?? 'live';
    if (served !== undefined && mode === 'live') this.live.set(key, this.clock.now() + LIVE_MODE_TTL_MS);
    else this.live.delete(key);
    return mode;
  }

  async stateOf(shop: string): Promise<ShopModeState> {
    const pin = this.shops.find(shop)?.modePin;
    if (pin !== undefined) return { mode: pin, pinned: true };
    return { mode: (await this.rows.get(shop.toLowerCase())) ?? 'live', pinned: false };
  }

  /** `shop/redact`: forgets the shop's stored mode; resolves to how many rows went. */
  purgeShop(shop: string): Promise<number> {
    this.live.delete(shop.toLowerCase());
    return this.rows.purgeShop(shop.toLowerCase());
  }

  /** Every served shop's mode state, by domain (one read). */
  async all(): Promise<Map<string, ShopModeState>> {
    const stored = await this.rows.all();
    return new Map(
      this.shops.all.map((shop) => [
        shop.domain,
        shop.modePin !== undefined
          ? { mode: shop.modePin, pinned: true }
          : { mode: stored.get(shop.domain) ?? 'live', pinned: false },
      ]),
    );
  }

  /**
   * The operator switches the shop's mode; resolves to the mode it had. Throws `ShopModeRefused`
   * for a shop not served, or one whose configuration pins the mode.
   */
  async set(domain: string, mode: ShopMode): Promise<ShopMode> {
    const shop = this.shops.find(domain);
    if (shop === undefined) throw new ShopModeRefused('unknown', `No shop ${domain.toLowerCase()}.`);
    if (shop.modePin !== undefined) {
      throw new ShopModeRefused(
        'pinned',
        `${shop.domain}'s mode is pinned to ${shop.modePin} by CONNECTOR_SHOP_${shop.key}_MODE: change it there.`,
      );
    }
    this.live.delete(shop.domain.toLowerCase());
    const before = (await this.rows.set(shop.domain, mode, this.now())) ?? 'live';
    // A decision read between the drop and the store may have kept the old `live`.
    this.live.delete(shop.domain.toLowerCase());
    return before;
  }

  private now(): Date {
    return new Date(this.clock.now());
  }
}
