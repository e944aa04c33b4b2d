import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ShopSession, type ShopState } from './shop-session.entity.js';
import type { SecretStore, StoredSecret } from './stored-secret.js';

/** The column of each secret a session row keeps. */
const TOKEN_COLUMNS = { 'access token': 'access_token', 'refresh token': 'refresh_token' } as const;

/** What a locked piece of work stores with the row (null: nothing) and gives back. */
export interface LockedOutcome<T> {
  changes: Partial<ShopSession> | null;
  result: T;
}

/** The `shop_sessions` table: every shop's session, read and changed only here. */
@Injectable()
export class ShopSessionRepository implements SecretStore {
  constructor(@InjectRepository(ShopSession) private readonly rows: Repository<ShopSession>) {}

  all(): Promise<ShopSession[]> {
    return this.rows.find({ order: { shop: 'ASC' } });
  }

  find(shop: string): Promise<ShopSession | null> {
    return this.rows.findOneBy({ shop });
  }

  /** The shop's row exists, with its configured auth kind (a changed kind drops the old tokens). */
  async ensure(shop: string, authKind: string, at: Date): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.table()} (shop, auth_kind, state, updated_at) VALUES ($1, $2, 'active', $3)
       ON CONFLICT (shop) DO UPDATE SET auth_kind = excluded.auth_kind, access_token = NULL,
         expires_at = NULL, refresh_token = NULL, refresh_token_expires_at = NULL, updated_at = excluded.updated_at
       WHERE ${this.table()}.auth_kind <> excluded.auth_kind`,
      [shop, authKind, at],
    );
  }

  /**
   * Runs `work` holding the row's lock (`FOR UPDATE`): replicas and workers wait for each
   * other, so one refresh happens and the others read its outcome. What `work` returns to store
   * is committed before the result is given back (a refreshed pair is saved before it is used).
   */
  async locked<T>(shop: string, work: (row: ShopSession) => Promise<LockedOutcome<T>>): Promise<T> {
    return this.rows.manager.transaction(async (manager) => {
      const rows = manager.getRepository(ShopSession);
      const row = await rows
        .createQueryBuilder('session')
        .setLock('pessimistic_write')
        .where('session.shop = :shop', { shop })
        .getOne();
      if (row === null) throw new Error(`No session row for shop ${shop}`);
      const { changes, result } = await work(row);
      if (changes !== null) await rows.update({ shop }, changes);
      return result;
    });
  }

  /** Sets the shop's state; `from`: only when it is in one of these. Resolves to whether it changed. */
  async setState(
    shop: string,
    state: ShopState,
    reason: string | null,
    at: Date,
    from?: readonly ShopState[],
  ): Promise<boolean> {
    const query = this.rows
      .createQueryBuilder()
      .update()
      .set({ state, stateReason: reason, updatedAt: at })
      .where('shop = :shop', { shop });
    if (from !== undefined) query.andWhere('state IN (:...from)', { from });
    const result = await query.execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * The columns of a shop that is `state` (uninstalled, redacted): its tokens forgotten (Shopify
   * revoked them). A redacted shop keeps only its domain, auth kind and state: what its tokens
   * were (scopes, refreshes), its subscriptions, its installation are gone too.
   */
  static forgotten(state: 'uninstalled' | 'redacted', reason: string, at: Date): Partial<ShopSession> {
    const tokens: Partial<ShopSession> = {
      state,
      stateReason: reason,
      accessToken: null,
      expiresAt: null,
      refreshToken: null,
      refreshTokenExpiresAt: null,
      updatedAt: at,
    };
    if (state === 'uninstalled') return tokens;
    return {
      ...tokens,
      scope: null,
      refreshedAt: null,
      refreshCount: 0,
      subscriptions: null,
      subscriptionsCheckedAt: null,
      subscriptionsRecreated: 0,
      installedAt: null,
      ignoredDeliveries: 0,
      lastIgnoredDelivery: null,
    };
  }

  /** What the subscription check found (topics now subscribed) and how many it created again. */
  async recordSubscriptions(shop: string, topics: string[], recreated: number, at: Date): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .update()
      .set({
        subscriptions: topics.join(','),
        subscriptionsCheckedAt: at,
        subscriptionsRecreated: () => `subscriptions_recreated + ${Math.trunc(recreated)}`,
      })
      .where('shop = :shop', { shop })
      .execute();
  }

  /** The access and refresh tokens not encrypted under `keyId` (`StoredSecrets`), by shop. */
  async secretsNotUnder(keyId: string, after: string, limit: number): Promise<StoredSecret[]> {
    const rows: Array<{ shop: string; access_token: string | null; refresh_token: string | null }> =
      await this.rows.query(
        `SELECT shop, access_token, refresh_token FROM ${this.table()}
          WHERE ((access_token IS NOT NULL AND access_token NOT LIKE $1)
             OR (refresh_token IS NOT NULL AND refresh_token NOT LIKE $1)) AND shop > $2
          ORDER BY shop LIMIT $3`,
        [`v1:${keyId}:%`, after, limit],
      );
    const under = `v1:${keyId}:`;
    return rows.flatMap((row) =>
      (['access token', 'refresh token'] as const).flatMap((kind): StoredSecret[] => {
        const value = row[TOKEN_COLUMNS[kind]];
        return value === null || value.startsWith(under)
          ? []
          : [{ holder: 'shop', id: row.shop, kind, value }];
      }),
    );
  }

  /**
   * The token re-encrypted, unless it changed since it was read: a renewal holding the row's
   * lock stores a new pair first, and this update then finds nothing to replace.
   */
  async replaceSecret(secret: StoredSecret, to: string): Promise<boolean> {
    if (secret.kind !== 'access token' && secret.kind !== 'refresh token') return false;
    const field = secret.kind === 'access token' ? 'accessToken' : 'refreshToken';
    const result = await this.rows.update({ shop: secret.id, [field]: secret.value }, { [field]: to });
    return (result.affected ?? 0) > 0;
  }

  /**
   * An SQL condition, true when the shop the caller's SQL expression `shop` names was redacted:
   * embedded in another table's write that must not bring a redacted shop's row back, in its one
   * statement (the shared cost buckets' upsert).
   */
  redactedSql(shop: string): string {
    return `EXISTS (SELECT 1 FROM ${this.table()} s WHERE s.shop = ${shop} AND s.state = 'redacted')`;
  }

  private table(): string {
    return this.rows.metadata.tablePath;
  }
}
