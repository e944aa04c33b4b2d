import { randomBytes } from 'node:crypto';

/** How an access token came to be; decides its lifetime. */
export type TokenKind = 'offline' | 'expiring-offline' | 'client-credentials';

/** An access token the sandbox issued (the seeded static tokens are not kept here). */
export interface AccessGrant {
  shop: string;
  clientId: string;
  kind: TokenKind;
  scopes: string[];
  /** Epoch ms; null for a non-expiring offline token. */
  expiresAt: number | null;
  revoked: boolean;
}

interface RefreshRecord {
  shop: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  /** When it was first exchanged; the 30-day recovery window counts from here. */
  firstUsedAt: number | null;
  /** The refresh token it was issued in exchange for; retired when this one is first used. */
  parent: string | null;
  retired: boolean;
}

/** A non-expiring offline token exchanged for an expiring pair, kept for the retries of that exchange. */
interface MigrationRecord {
  shop: string;
  clientId: string;
  access: string;
  refresh: string;
  /** When the first exchange happened; retries are answered for 7 days from here. */
  exchangedAt: number;
}

/** The pair a migration issued, as a retry of it answers it. */
export interface MigratedPair {
  access: string;
  refresh: string;
  scopes: string[];
  /** Seconds left to the access token (extended by the retry) and to the refresh token (never extended). */
  expiresInS: number;
  refreshExpiresInS: number;
}

interface CodeRecord {
  shop: string;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  issuedAt: number;
  used: boolean;
}

/** Shopify's lifetimes, in seconds (README, "Facts and sources"). */
export const LIFETIMES_S = {
  clientCredentials: 86_399,
  expiringOffline: 3_600,
  refreshToken: 90 * 24 * 3_600,
  /** A used refresh token stays usable this long after its first use, until its replacement is used. */
  refreshRecovery: 30 * 24 * 3_600,
  /**
   * A retry of a migration (non-expiring token exchanged for an expiring pair) returns the same
   * pair this long after the first exchange (README, "Facts and sources").
   */
  migrationRecovery: 7 * 24 * 3_600,
  /** An authorization code (not documented by Shopify: RFC 6749's recommended maximum, 10 minutes). */
  authorizationCode: 600,
} as const;

/** Why a refresh token was refused. */
export type RefreshRefusal = 'unknown' | 'retired' | 'expired';

/**
 * Every access token, refresh token and authorization code the sandbox issued, with their
 * lifetimes, Shopify's rotation rules and the migrations of non-expiring tokens. Pure: the
 * caller passes the time.
 */
export class TokenStore {
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, RefreshRecord>();
  private readonly codes = new Map<string, CodeRecord>();
  /** The one non-expiring offline token of a shop and app (re-authorizing returns the same one). */
  private readonly offline = new Map<string, string>();
  /** Migrations by the original non-expiring token, while a retry may still recover their pair. */
  private readonly migrations = new Map<string, MigrationRecord>();

  /** The live grant of a token at `now`, or undefined (unknown, expired or revoked). */
  resolve(token: string, now: number): AccessGrant | undefined {
    const grant = this.access.get(token);
    if (!grant || grant.revoked || (grant.expiresAt !== null && now >= grant.expiresAt)) return undefined;
    return grant;
  }

  /** Issues an access token; `ttlS` null means it never expires. */
  issueAccess(
    shop: string,
    clientId: string,
    kind: TokenKind,
    scopes: string[],
    now: number,
    ttlS: number | null,
  ) {
    if (kind === 'offline') {
      const existing = this.offline.get(key(shop, clientId));
      if (existing && this.resolve(existing, now)) return existing;
    }
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    this.access.set(token, {
      shop,
      clientId,
      kind,
      scopes,
      expiresAt: ttlS === null ? null : now + ttlS * 1000,
      revoked: false,
    });
    if (kind === 'offline') this.offline.set(key(shop, clientId), token);
    // A later offline token for the shop and app (a new authorization, a refresh, another
    // migration) replaces a migrated pair: retries of that migration are refused from now on.
    if (kind !== 'client-credentials') this.endMigrations(shop, clientId);
    return token;
  }

  /** The live non-expiring offline token of this shop and app (the subject a migration takes), or undefined. */
  nonExpiring(token: string, shop: string, clientId: string, now: number): AccessGrant | undefined {
    const grant = this.resolve(token, now);
    const legacy = grant?.kind === 'offline' && grant.expiresAt === null;
    return legacy && grant.shop === shop && grant.clientId === clientId ? grant : undefined;
  }

  /**
   * Records the migration of `original` to the expiring pair just issued: the original is revoked
   * for the Admin API, and a retry with it returns this pair (`recoverMigration`).
   */
  recordMigration(original: string, access: string, refresh: string, now: number): void {
    const grant = this.access.get(original);
    if (!grant) return;
    grant.revoked = true;
    this.migrations.set(original, {
      shop: grant.shop,
      clientId: grant.clientId,
      access,
      refresh,
      exchangedAt: now,
    });
  }

  /**
   * A retry of the migration of `original`: the same pair, its access token extended to `ttlS`
   * from now when needed, its refresh token not extended. Undefined once recovery has ended: 7
   * days after the first exchange, once the pair was refreshed or replaced by a later offline
   * token, or uninstalled.
   */
  recoverMigration(
    original: string,
    shop: string,
    clientId: string,
    now: number,
    ttlS: number,
  ): MigratedPair | undefined {
    const record = this.migrations.get(original);
    if (!record || record.shop !== shop || record.clientId !== clientId) return undefined;
    if (now >= record.exchangedAt + LIFETIMES_S.migrationRecovery * 1000) return undefined;
    const access = this.access.get(record.access);
    const refresh = this.refresh.get(record.refresh);
    if (!access || access.revoked || !refresh || refresh.retired || now >= refresh.expiresAt)
      return undefined;
    access.expiresAt = Math.max(access.expiresAt ?? 0, now + ttlS * 1000);
    return {
      access: record.access,
      refresh: record.refresh,
      scopes: access.scopes,
      expiresInS: Math.ceil((access.expiresAt - now) / 1000),
      refreshExpiresInS: Math.floor((refresh.expiresAt - now) / 1000),
    };
  }

  /** Issues a refresh token of 90 days; `parent` is the one exchanged for it, if any. */
  issueRefresh(shop: string, clientId: string, scopes: string[], now: number, parent: string | null): string {
    const token = `shprt_${randomBytes(16).toString('hex')}`;
    this.refresh.set(token, {
      shop,
      clientId,
      scopes,
      expiresAt: now + LIFETIMES_S.refreshToken * 1000,
      firstUsedAt: null,
      parent,
      retired: false,
    });
    return token;
  }

  /**
   * Exchanges a refresh token of this shop and app: it must be live (not retired, within its 90
   * days, and within 30 days of its first use). Using it retires the one it replaced.
   */
  useRefresh(
    token: string,
    shop: string,
    clientId: string,
    now: number,
  ): { scopes: string[] } | { refused: RefreshRefusal } {
    const record = this.refresh.get(token);
    if (!record || record.shop !== shop || record.clientId !== clientId) return { refused: 'unknown' };
    if (record.retired) return { refused: 'retired' };
    const recoveryEnd =
      record.firstUsedAt === null
        ? Number.POSITIVE_INFINITY
        : record.firstUsedAt + LIFETIMES_S.refreshRecovery * 1000;
    if (now >= record.expiresAt || now >= recoveryEnd) return { refused: 'expired' };
    record.firstUsedAt ??= now;
    // A migrated pair refreshed: retries of its migration are refused from now on.
    for (const [original, migration] of this.migrations) {
      if (migration.refresh === token) this.migrations.delete(original);
    }
    const parent = record.parent === null ? undefined : this.refresh.get(record.parent);
    if (parent) parent.retired = true;
    return { scopes: record.scopes };
  }

  issueCode(shop: string, clientId: string, scopes: string[], redirectUri: string, now: number): string {
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, { shop, clientId, scopes, redirectUri, issuedAt: now, used: false });
    return code;
  }

  /** Takes a code once: undefined when unknown, of another shop or app, used, or too old. */
  takeCode(code: string, shop: string, clientId: string, now: number): { scopes: string[] } | undefined {
    const record = this.codes.get(code);
    if (!record || record.shop !== shop || record.clientId !== clientId || record.used) return undefined;
    record.used = true;
    if (now - record.issuedAt >= LIFETIMES_S.authorizationCode * 1000) return undefined;
    return { scopes: record.scopes };
  }

  /** Uninstall: every token, refresh token and code of the app on the shop dies at once. */
  revokeAll(shop: string, clientId: string): number {
    let revoked = 0;
    for (const grant of this.access.values()) {
      if (grant.shop === shop && grant.clientId === clientId && !grant.revoked) {
        grant.revoked = true;
        revoked++;
      }
    }
    for (const record of this.refresh.values()) {
      if (record.shop === shop && record.clientId === clientId) record.retired = true;
    }
    for (const record of this.codes.values()) {
      if (record.shop === shop && record.clientId === clientId) record.used = true;
    }
    this.offline.delete(key(shop, clientId));
    this.endMigrations(shop, clientId);
    return revoked;
  }

  private endMigrations(shop: string, clientId: string): void {
    for (const [original, record] of this.migrations) {
      if (record.shop === shop && record.clientId === clientId) this.migrations.delete(original);
    }
  }
}

function key(shop: string, clientId: string): string {
  return `${shop}\u0000${clientId}`;
}
