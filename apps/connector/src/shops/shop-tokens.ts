import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { EncryptionSettings, ShopifySettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { ShopAuthError, ShopAuthErrorCode } from './shop-auth.error.js';
import { ShopFetchRoutes } from './shop-fetch-routes.js';
import type { ShopSession } from './shop-session.entity.js';
import { type LockedOutcome, ShopSessionRepository } from './shop-sessions.repository.js';
import { ShopTokenSource } from './shop-token-source.js';
import { Shops } from './shops.js';
import { TokenCipher } from './token-cipher.js';
import { type GrantedTokens, grantFailure, TokenGrants } from './token-grants.js';

type Cached =
  | { kind: 'token'; token: string; refreshAt: number | null }
  | { kind: 'refused'; error: ShopAuthError; until: number };
type Renewal = { token: string; refreshAt: number | null } | { error: ShopAuthError };

/**
 * Why: every Admin API call asks here for the shop's token. A static token is given as is; a
 * granted one (client credentials, an install's expiring token) is kept in memory and in
 * `shop_sessions` (encrypted), renewed a margin plus jitter before it expires and once after a
 * 401. One renewal at a time: callers of this process share it, and replicas wait for the row's
 * lock and then read the pair it stored (saved before anyone uses it). Shopify's refusals put the
 * shop in `needs_reauth`; its callers then get a `ShopAuthError` that makes jobs wait.
 */
@Injectable()
export class ShopTokens extends ShopTokenSource implements OnModuleInit {
  private readonly logger = new Logger('ShopTokens');
  private readonly cipher: TokenCipher;
  private readonly cache = new Map<string, Cached>();
  private readonly inflight = new Map<string, Promise<string>>();
  /** Where the jitter comes from (tests fix it). */
  random: () => number = Math.random;

  constructor(
    private readonly shops: Shops,
    private readonly sessions: ShopSessionRepository,
    private readonly grants: TokenGrants,
    private readonly settings: ShopifySettings,
    private readonly clock: Clock,
    encryption: EncryptionSettings,
    // Injected so that the shop's requests are routed before the first grant.
    _routes: ShopFetchRoutes,
  ) {
    super();
    this.cipher = new TokenCipher(encryption.keys);
  }

  /** Each configured shop has its row; a refused client-credentials shop gets one more try (corrected credentials). */
  async onModuleInit(): Promise<void> {
    const at = new Date(this.clock.now());
    for (const shop of this.shops.all) {
      await this.sessions.ensure(shop.domain, shop.auth.kind, at);
      if (shop.auth.kind === 'client-credentials') {
        await this.sessions.setState(shop.domain, 'active', null, at, ['needs_reauth']);
      }
    }
  }

  /** The token to call the shop's Admin API with now. */
  async accessToken(domain: string): Promise<string> {
    const shop = this.shopOf(domain);
    if (shop.auth.kind === 'static') return shop.auth.accessToken.reveal();
    const cached = this.cache.get(shop.domain);
    const now = this.clock.now();
    if (cached?.kind === 'token' && (cached.refreshAt === null || now < cached.refreshAt))
      return cached.token;
    if (cached?.kind === 'refused' && now < cached.until) throw cached.error;
    return this.renew(shop, null);
  }

  /** After Shopify answered 401 to `used`: a new token (or another caller's newer one); null when none can be had (static). */
  async afterUnauthorized(domain: string, used: string): Promise<string | null> {
    const shop = this.shopOf(domain);
    if (shop.auth.kind === 'static') return null;
    this.logger.warn(`${shop.domain}: Admin API answered 401, renewing the token`);
    return this.renew(shop, used);
  }

  private shopOf(domain: string): ShopConfig {
    const shop = this.shops.find(domain);
    if (shop === undefined) throw new Error(`No shop ${domain}`);
    return shop;
  }

  private renew(shop: ShopConfig, stale: string | null): Promise<string> {
    const running = this.inflight.get(shop.domain);
    if (running !== undefined) return running;
    const renewal = this.renewLocked(shop, stale).finally(() => this.inflight.delete(shop.domain));
    this.inflight.set(shop.domain, renewal);
    return renewal;
  }

  private async renewLocked(shop: ShopConfig, stale: string | null): Promise<string> {
    const outcome = await this.sessions.locked(shop.domain, (row) => this.decide(shop, row, stale));
    if ('error' in outcome) {
      const { error } = outcome;
      if (error.waitMs !== null)
        this.cache.set(shop.domain, { kind: 'refused', error, until: this.clock.now() + error.waitMs });
      else this.cache.delete(shop.domain);
      throw error;
    }
    this.cache.set(shop.domain, { kind: 'token', token: outcome.token, refreshAt: outcome.refreshAt });
    return outcome.token;
  }

  /** Under the row's lock: the stored token if it is still good (another replica renewed it), else a grant. */
  private async decide(
    shop: ShopConfig,
    row: ShopSession,
    stale: string | null,
  ): Promise<LockedOutcome<Renewal>> {
    const now = this.clock.now();
    if (row.state !== 'active') return { changes: null, result: { error: this.notActive(shop, row) } };
    const current = row.accessToken === null ? null : this.cipher.decrypt(row.accessToken);
    const expiresAt = row.expiresAt?.getTime() ?? null;
    if (
      current !== null &&
      current !== stale &&
      (expiresAt === null || now < expiresAt - this.margin(row, now))
    ) {
      return {
        changes: null,
        result: { token: current, refreshAt: this.refreshAt(row.refreshedAt?.getTime() ?? now, expiresAt) },
      };
    }
    let granted: GrantedTokens;
    try {
      if (shop.auth.kind === 'client-credentials') granted = await this.grants.clientCredentials(shop, now);
      else if (row.refreshToken !== null)
        granted = await this.grants.refresh(shop, this.cipher.decrypt(row.refreshToken), now);
      else return this.refused(shop, 'not installed: no token to renew (install the app)', now);
    } catch (error) {
      const failure = grantFailure(error);
      if (failure.refused) return this.refused(shop, failure.reason, now);
      const message = `${shop.domain}: no token from Shopify yet (${failure.reason})`;
      return {
        changes: null,
        result: { error: new ShopAuthError(ShopAuthErrorCode.TOKEN_UNAVAILABLE, message, null) },
      };
    }
    const changes: Partial<ShopSession> = {
      accessToken: this.cipher.encrypt(granted.accessToken),
      expiresAt: granted.expiresAt,
      refreshToken: granted.refreshToken === null ? null : this.cipher.encrypt(granted.refreshToken),
      refreshTokenExpiresAt: granted.refreshTokenExpiresAt,
      scope: granted.scope,
      refreshedAt: new Date(now),
      refreshCount: row.refreshCount + 1,
      updatedAt: new Date(now),
    };
    return {
      changes,
      result: {
        token: granted.accessToken,
        refreshAt: this.refreshAt(now, granted.expiresAt?.getTime() ?? null),
      },
    };
  }

  private refused(shop: ShopConfig, reason: string, now: number): LockedOutcome<Renewal> {
    this.logger.warn(`${shop.domain} needs re-authorization: ${reason}; its jobs wait`);
    const changes: Partial<ShopSession> = {
      state: 'needs_reauth',
      stateReason: reason,
      updatedAt: new Date(now),
    };
    return {
      changes,
      result: { error: this.notActive(shop, { state: 'needs_reauth', stateReason: reason }) },
    };
  }

  private notActive(shop: ShopConfig, row: Pick<ShopSession, 'state' | 'stateReason'>): ShopAuthError {
    const code =
      row.state === 'needs_reauth' ? ShopAuthErrorCode.NEEDS_REAUTH : ShopAuthErrorCode.UNINSTALLED;
    const why = row.stateReason === null ? '' : ` (${row.stateReason})`;
    return new ShopAuthError(code, `${shop.domain} is ${row.state}${why}`, this.settings.reauthRecheckMs);
  }

  /** The renewal margin: the configured one, at most a fifth of the token's life. */
  private margin(row: Pick<ShopSession, 'refreshedAt' | 'expiresAt'>, now: number): number {
    const expiresAt = row.expiresAt?.getTime() ?? now;
    const life = Math.max(0, expiresAt - (row.refreshedAt?.getTime() ?? now));
    return Math.min(this.settings.tokenRefreshMarginMs, life / 5);
  }

  /** When to renew a token granted at `grantedAt`: margin plus jitter (at most a tenth of its life) before it expires. */
  private refreshAt(grantedAt: number, expiresAt: number | null): number | null {
    if (expiresAt === null) return null;
    const life = Math.max(0, expiresAt - grantedAt);
    const margin = Math.min(this.settings.tokenRefreshMarginMs, life / 5);
    const jitter = this.random() * Math.min(this.settings.tokenRefreshJitterMs, life / 10);
    return expiresAt - margin - jitter;
  }
}
