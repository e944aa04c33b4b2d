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
 * Why: each shop is `live` or `shadow` (issue 31), and every feature that would send a write asks
 * here. The mode is the configuration's pin (`CONNECTOR_SHOP_<KEY>_MODE`), else the stored one
 * (`shop_modes`, switched by the operator; `InstalledShopDirectory.join` gives a shop that
 * installs the app `CONNECTOR_NEW_SHOP_MODE`), else `live`: configured shops keep sending their writes.
 */
@Injectable()
export class ShopModes {
  constructor(
    private readonly shops: Shops,
    private readonly rows: ShopModesRepository,
    private readonly clock: Clock,
  ) {}

  /** The shop's mode now (read from the table each time: another replica may have switched it). */
  async modeOf(shop: string): Promise<ShopMode> {
    return (await this.stateOf(shop)).mode;
  }

  async stateOf(shop: string): Promise<ShopModeState> {
    const pin = this.shops.find(shop)?.modePin;
    if (pin !== undefined) return { mode: pin, pinned: true };
    return { mode: (await this.rows.get(shop.toLowerCase())) ?? 'live', pinned: false };
  }

  /** `shop/redact`: forgets the shop's stored mode; resolves to how many rows went. */
  purgeShop(shop: string): Promise<number> {
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
    return (await this.rows.set(shop.domain, mode, this.now())) ?? 'live';
  }

  private now(): Date {
    return new Date(this.clock.now());
  }
}
