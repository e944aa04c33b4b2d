import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ConcurrencyLimit } from '../platform/boot/concurrency-limit.js';
import { EncryptionSettings, ShopifySettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { olderThanInstallation, type UndoingTopic } from './lifecycle-staleness.js';
import { renewalMargin, renewalTime } from './renewal-times.js';
import { ShopAuthError, ShopAuthErrorCode } from './shop-auth.error.js';
import { ShopFetchRoutes } from './shop-fetch-routes.service.js';
import { ShopMigrationError } from './shop-migration.error.js';
import type { ShopSession } from './shop-session.entity.js';
import { type LockedOutcome, ShopSessionRepository } from './shop-sessions.repository.js';
import { ShopTokenSource } from './shop-token-source.js';
import { Shops } from './shops.js';
import { TokenCipher } from './token-cipher.js';
import { type GrantedTokens, grantFailure, TokenGrants } from './token-grants.service.js';

/** Configured shops whose session row is made sure of at once at boot (a few of the tables' pool). */
const BOOT_ROWS_AT_ONCE = 4;

type Cached =
  | { kind: 'token'; token: string; refreshAt: number | null }
  | { kind: 'refused'; error: ShopAuthError; until: number };
type Renewal = { token: string; refreshAt: number | null; reinstalled: boolean } | { error: ShopAuthError };

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
  /** Static shops whose legacy token was exchanged for an expiring pair (served as installed). */
  private readonly migrated = new Set<string>();
  /** Until when a static shop's row was seen active (looked at again after). */
  private readonly staticCheckedUntil = new Map<string, number>();
  /** Where the jitter comes from (tests fix it). */
  random: () => number = Math.random;
  /** Told each time a shop becomes active again (`onActiveAgain`). */
  private readonly activeListeners: Array<(shop: string) => void> = [];

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

  /**
   * Each configured shop has its row. A refused or uninstalled `static` or `client-credentials`
   * shop gets one more try at boot (a corrected token or credentials, a new install); an
   * `installed` one waits for its next install. A few shops at a time (their rows are their
   * own): 200 configured shops do not make the boot wait for 600 queries one after the other.
   */
  async onModuleInit(): Promise<void> {
    const at = new Date(this.clock.now());
    const limit = new ConcurrencyLimit(BOOT_ROWS_AT_ONCE);
    await Promise.all(this.shops.configured.map((shop) => limit.run(() => this.bootRow(shop, at))));
  }

  private async bootRow(shop: ShopConfig, at: Date): Promise<void> {
    const row = await this.sessions.find(shop.domain);
    if (shop.auth.kind === 'static' && row?.authKind === 'installed' && row.refreshToken !== null) {
      // Migrated to expiring tokens (`migrate`): its static token was revoked; the pair goes on.
      this.migrated.add(shop.domain);
      this.logger.warn(
        `${shop.domain} was migrated to expiring tokens: set CONNECTOR_SHOP_${shop.key}_AUTH=installed and remove its ACCESS_TOKEN`,
      );
      return;
    }
    await this.sessions.ensure(shop.domain, shop.auth.kind, at);
    if (shop.auth.kind !== 'installed') {
      await this.sessions.setState(shop.domain, 'active', null, at, ['needs_reauth', 'uninstalled']);
    }
  }

  /**
   * Called with the shop's domain each time it becomes active again (an install's callback, the
   * first grant after an uninstall), after its row says so: its webhooks are subscribed at once.
   */
  onActiveAgain(listener: (shop: string) => void): void {
    this.activeListeners.push(listener);
  }

  /**
   * `app/uninstalled` triggered at `triggeredAt` (null: unknown): no more token for the shop
   * (Shopify revoked them): its jobs wait, no call is made. Unless it was triggered before the
   * shop's current installation (`olderThanInstallation`, checked under the row's lock): then
   * nothing changes but the ignored delivery's record, and the reason is returned.
   */
  async uninstalled(domain: string, triggeredAt: Date | null): Promise<string | null> {
    const shop = await this.shopOf(domain);
    const ignored = await this.undo(
      shop,
      'app/uninstalled',
      triggeredAt,
      'uninstalled',
      'the app was uninstalled',
    );
    if (ignored === null) this.refuse(shop, { state: 'uninstalled', stateReason: 'the app was uninstalled' });
    return ignored;
  }

  /**
   * An install's callback: the shop's new token pair, stored (encrypted) before use; the shop is
   * active. `first` runs under the row's lock before that, given the row as it was (a join's
   * rows): a `shop/redact` purge holding the lock ends before, and never takes them.
   */
  async installed(
    domain: string,
    granted: GrantedTokens,
    first?: (row: ShopSession) => Promise<void>,
  ): Promise<void> {
    const shop = await this.shopOf(domain);
    const now = this.clock.now();
    await this.sessions.ensure(shop.domain, shop.auth.kind, new Date(now));
    await this.sessions.locked(shop.domain, async (row) => {
      await first?.(row);
      return {
        changes: {
          ...this.pairOf(granted, row, now),
          state: 'active',
          stateReason: null,
          installedAt: new Date(now),
        },
        result: undefined,
      };
    });
    this.cache.set(shop.domain, {
      kind: 'token',
      token: granted.accessToken,
      refreshAt: this.renewAt(now, granted.expiresAt?.getTime() ?? null),
    });
    this.logger.log(`${shop.domain} installed the app: its jobs resume`);
    this.activeAgain(shop.domain);
  }

  /**
   * `shop/redact` triggered at `triggeredAt`: the shop's data is to go; it stays marked so no
   * call is made for it. Resolves to why it is ignored instead (`olderThanInstallation`: a
   * redact of an earlier installation), or null once the row says `redacted` (the caller purges).
   */
  async redacted(domain: string, triggeredAt: Date | null): Promise<string | null> {
    const shop = await this.shopOf(domain);
    const reason = 'the shop data was redacted (shop/redact)';
    const ignored = await this.undo(shop, 'shop/redact', triggeredAt, 'redacted', reason);
    if (ignored === null) this.refuse(shop, { state: 'redacted', stateReason: reason });
    return ignored;
  }

  /**
   * Under the row's lock: the delivery's undoing (the tokens forgotten, the state set), unless it
   * is older than the current installation; then only its record. A shop without a row has no
   * installation to keep and nothing to forget.
   */
  private async undo(
    shop: ShopConfig,
    topic: UndoingTopic,
    triggeredAt: Date | null,
    state: 'uninstalled' | 'redacted',
    reason: string,
  ): Promise<string | null> {
    if ((await this.sessions.find(shop.domain)) === null) return null;
    const at = new Date(this.clock.now());
    const ignored = await this.sessions.locked(shop.domain, async (row) => {
      const older = olderThanInstallation(topic, triggeredAt, row);
      if (older !== null) {
        return {
          changes: {
            ignoredDeliveries: row.ignoredDeliveries + 1,
            lastIgnoredDelivery: `${topic} ${older}, ignored at ${at.toISOString()}`,
          },
          result: older,
        };
      }
      return { changes: ShopSessionRepository.forgotten(state, reason, at), result: null };
    });
    if (ignored !== null) {
      this.logger.warn(
        `${shop.domain}: ${topic} ${ignored}: ignored; the shop stays as it is${state === 'redacted' ? ', its data kept' : ''}`,
      );
    }
    return ignored;
  }

  /** Tells the listeners the shop is active again; a listener's error never reaches the caller. */
  private activeAgain(domain: string): void {
    for (const listener of this.activeListeners) {
      try {
        listener(domain);
      } catch (error) {
        this.logger.warn(`${domain}: a listener of its new install failed (${String(error)})`);
      }
    }
  }

  /** The token to call the shop's Admin API with now. */
  async accessToken(domain: string): Promise<string> {
    const shop = await this.shopOf(domain);
    const cached = this.cache.get(shop.domain);
    const now = this.clock.now();
    if (cached?.kind === 'refused' && now < cached.until) throw cached.error;
    if (shop.auth.kind === 'static') return this.staticToken(shop, now);
    if (cached?.kind === 'token' && (cached.refreshAt === null || now < cached.refreshAt))
      return cached.token;
    return this.renew(shop, null);
  }

  /**
   * After Shopify answered 401 to `used`: a new token (or another caller's newer one); null when
   * none can be had (static); rejects with a `ShopAuthError` when the shop is not active.
   */
  async afterUnauthorized(domain: string, used: string): Promise<string | null> {
    const shop = await this.shopOf(domain);
    if (shop.auth.kind === 'static') {
      // A static token is never renewed. Refused after an uninstall, the shop's jobs wait;
      // otherwise the 401 is the call's failure (a revoked token: a person must act).
      const row = await this.sessions.find(shop.domain);
      if (row !== null && row.state !== 'active') throw this.refuse(shop, row);
      // Migrated by another replica: its pair, renewed from now on like an install's.
      if (this.adoptMigration(shop, row)) return this.afterUnauthorized(domain, used);
      return null;
    }
    this.logger.warn(`${shop.domain}: Admin API answered 401, renewing the token`);
    return this.renew(shop, used);
  }

  /** A static shop's token, unless its row says otherwise (looked at again every recheck period). */
  private async staticToken(shop: ShopConfig, now: number): Promise<string> {
    if (shop.auth.kind !== 'static') throw new Error(`${shop.domain} is not static`);
    if (now >= (this.staticCheckedUntil.get(shop.domain) ?? 0)) {
      const row = await this.sessions.find(shop.domain);
      if (row !== null && row.state !== 'active') throw this.refuse(shop, row);
      if (this.adoptMigration(shop, row)) return this.accessToken(shop.domain);
      this.staticCheckedUntil.set(shop.domain, now + this.settings.reauthRecheckMs);
    }
    return shop.auth.accessToken.reveal();
  }

  /** True when the row says another replica migrated this static shop: it is served as installed now. */
  private adoptMigration(shop: ShopConfig, row: ShopSession | null): boolean {
    if (row?.authKind !== 'installed' || row.refreshToken === null || shop.auth.app === null) return false;
    this.migrated.add(shop.domain);
    this.cache.delete(shop.domain);
    return true;
  }

  /** Remembers that the shop has no token, until the next recheck; the error to throw. */
  private refuse(shop: ShopConfig, row: Pick<ShopSession, 'state' | 'stateReason'>): ShopAuthError {
    const error = this.notActive(shop, row);
    this.cache.set(shop.domain, {
      kind: 'refused',
      error,
      until: this.clock.now() + this.settings.reauthRecheckMs,
    });
    return error;
  }

  /**
   * The served shop (read again from the table on a miss: another replica's install), as it
   * authenticates now: a migrated static shop is an installed one.
   */
  private async shopOf(domain: string): Promise<ShopConfig> {
    const shop = this.shops.find(domain) ?? (await this.shops.findFresh(domain));
    if (shop === undefined) throw new Error(`No shop ${domain}`);
    if (shop.auth.kind === 'static' && shop.auth.app !== null && this.migrated.has(shop.domain)) {
      return { ...shop, auth: { kind: 'installed', app: shop.auth.app } };
    }
    return shop;
  }

  /** Whether the shop's static token was exchanged for expiring ones (`GET /admin/shops`). */
  isMigrated(domain: string): boolean {
    return this.migrated.has(domain);
  }

  /**
   * `POST /admin/shops/{shop}/migrate-token`: a static shop's legacy non-expiring offline token
   * (of an app whose credentials are set) exchanged for an expiring pair, stored (encrypted)
   * under the row's lock before use; from then on renewed like an install's. Shopify revokes
   * the old token; a lost answer is recovered by asking again with it (the same pair).
   */
  async migrate(domain: string): Promise<void> {
    const shop = await this.shopOf(domain);
    if (shop.auth.kind !== 'static') {
      throw new ShopMigrationError(
        `${shop.domain} already uses ${shop.auth.kind === 'installed' ? 'expiring' : 'granted'} tokens`,
        'conflict',
      );
    }
    if (shop.auth.app === null) {
      throw new ShopMigrationError(
        `${shop.domain}: set the app's credentials (CONNECTOR_SHOPIFY_CLIENT_ID and _SECRET, or CONNECTOR_SHOP_${shop.key}_CLIENT_ID and _SECRET) of the app its token belongs to`,
        'invalid',
      );
    }
    const legacy = shop.auth.accessToken.reveal();
    const now = this.clock.now();
    let granted: GrantedTokens;
    try {
      granted = await this.grants.migrate(shop, legacy, now);
    } catch (error) {
      const failure = grantFailure(error);
      throw new ShopMigrationError(
        `Shopify ${failure.refused ? 'refused' : 'could not take'} the migration of ${shop.domain}: ${failure.reason}`,
        failure.refused ? 'refused' : 'unavailable',
      );
    }
    await this.sessions.ensure(shop.domain, 'static', new Date(now));
    await this.sessions.locked(shop.domain, async (row) => ({
      changes: {
        ...this.pairOf(granted, row, now),
        authKind: 'installed',
        state: 'active',
        stateReason: null,
      },
      result: undefined,
    }));
    this.migrated.add(shop.domain);
    this.staticCheckedUntil.delete(shop.domain);
    this.cache.set(shop.domain, {
      kind: 'token',
      token: granted.accessToken,
      refreshAt: this.renewAt(now, granted.expiresAt?.getTime() ?? null),
    });
    this.logger.warn(
      `${shop.domain} migrated to expiring tokens: set CONNECTOR_SHOP_${shop.key}_AUTH=installed and remove its ACCESS_TOKEN`,
    );
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
    if (outcome.reinstalled) this.activeAgain(shop.domain);
    return outcome.token;
  }

  /** Under the row's lock: the stored token if it is still good (another replica renewed it), else a grant. */
  private async decide(
    shop: ShopConfig,
    row: ShopSession,
    stale: string | null,
  ): Promise<LockedOutcome<Renewal>> {
    const now = this.clock.now();
    // An uninstalled client-credentials shop is asked for again at each recheck: a new install resumes it.
    const reinstall = row.state === 'uninstalled' && shop.auth.kind === 'client-credentials';
    if (row.state !== 'active' && !reinstall) {
      return { changes: null, result: { error: this.notActive(shop, row) } };
    }
    const current = this.readable(row.accessToken);
    const expiresAt = row.expiresAt?.getTime() ?? null;
    if (
      current !== null &&
      current !== stale &&
      (expiresAt === null ||
        now < expiresAt - renewalMargin(this.settings, row.refreshedAt?.getTime() ?? now, expiresAt))
    ) {
      return {
        changes: null,
        result: {
          token: current,
          refreshAt: this.renewAt(row.refreshedAt?.getTime() ?? now, expiresAt),
          reinstalled: false,
        },
      };
    }
    let granted: GrantedTokens;
    try {
      if (shop.auth.kind === 'client-credentials') granted = await this.grants.clientCredentials(shop, now);
      else if (row.refreshToken !== null) {
        const refreshToken = this.readable(row.refreshToken);
        if (refreshToken === null) {
          return this.refused(
            shop,
            'the stored refresh token cannot be decrypted (its key left CONNECTOR_ENCRYPTION_KEYS): install the app again',
            now,
          );
        }
        granted = await this.grants.refresh(shop, refreshToken, now);
      } else return this.refused(shop, 'not installed: no token to renew (install the app)', now);
    } catch (error) {
      const failure = grantFailure(error);
      if (failure.refused && reinstall)
        return { changes: null, result: { error: this.notActive(shop, row) } };
      if (failure.refused) return this.refused(shop, failure.reason, now);
      const message = `${shop.domain}: no token from Shopify yet (${failure.reason})`;
      return {
        changes: null,
        result: { error: new ShopAuthError(ShopAuthErrorCode.TOKEN_UNAVAILABLE, message, null) },
      };
    }
    const changes: Partial<ShopSession> = {
      ...this.pairOf(granted, row, now),
      // The grant was asked for at `now`: the installation it proves began before then.
      ...(reinstall ? { state: 'active' as const, stateReason: null, installedAt: new Date(now) } : {}),
    };
    if (reinstall) this.logger.log(`${shop.domain} installed the app again: its jobs resume`);
    return {
      changes,
      result: {
        token: granted.accessToken,
        refreshAt: this.renewAt(now, granted.expiresAt?.getTime() ?? null),
        reinstalled: reinstall,
      },
    };
  }

  private renewAt(grantedAt: number, expiresAt: number | null): number | null {
    return renewalTime(this.settings, grantedAt, expiresAt, this.random);
  }

  /** A stored token in clear; null when there is none or no configured key reads it (a dropped key). */
  private readable(stored: string | null): string | null {
    if (stored === null) return null;
    try {
      return this.cipher.decrypt(stored);
    } catch (error) {
      this.logger.warn(
        `A stored token cannot be decrypted (${error instanceof Error ? error.message : String(error)})`,
      );
      return null;
    }
  }

  /** The columns of a granted pair, encrypted. */
  private pairOf(granted: GrantedTokens, row: ShopSession, now: number): Partial<ShopSession> {
    return {
      accessToken: this.cipher.encrypt(granted.accessToken),
      expiresAt: granted.expiresAt,
      refreshToken: granted.refreshToken === null ? null : this.cipher.encrypt(granted.refreshToken),
      refreshTokenExpiresAt: granted.refreshTokenExpiresAt,
      scope: granted.scope,
      refreshedAt: new Date(now),
      refreshCount: row.refreshCount + 1,
      updatedAt: new Date(now),
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
}
