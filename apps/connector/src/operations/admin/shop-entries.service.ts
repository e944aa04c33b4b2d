import { Injectable } from '@nestjs/common';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import type { ShopConfig } from '../../platform/config/shop-config.js';
import { ResyncRunsRepository } from '../../resync/resync-runs.repository.js';
import { type ShopModeState, ShopModes } from '../../shops/shop-modes.service.js';
import type { ShopSession } from '../../shops/shop-session.entity.js';
import { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import { ShopTokens } from '../../shops/shop-tokens.service.js';
import { Shops } from '../../shops/shops.js';
import { type ShopSecretCount, StoredSecrets } from '../../shops/stored-secrets.service.js';
import type { EncryptionStateDto, ShopListEntryDto } from './shop-list.dto.js';

/**
 * Why: `GET /admin/shops` and the CLI's `shops` show every shop the same way: the served ones
 * (configured, then installed) with their session row, plus any row left of a shop no longer
 * served (a redacted one); with the operator's next step for a shop that installed the app.
 */
@Injectable()
export class ShopEntries {
  constructor(
    private readonly shops: Shops,
    private readonly sessions: ShopSessionRepository,
    private readonly runs: ResyncRunsRepository,
    private readonly catalogs: CatalogClients,
    private readonly tokens: ShopTokens,
    private readonly modes: ShopModes,
    private readonly secrets: StoredSecrets,
  ) {}

  async all(): Promise<ShopListEntryDto[]> {
    return (await this.list()).shops;
  }

  /** Every shop, and where the stored secrets stand (`GET /admin/shops`). */
  async list(): Promise<{ shops: ShopListEntryDto[]; encryption: EncryptionStateDto }> {
    const rows = new Map((await this.sessions.all()).map((row) => [row.shop, row]));
    const resynced = await this.runs.shopsWithRuns();
    const modes = await this.modes.all();
    const census = await this.secrets.census();
    const served = this.shops.all.map((shop) =>
      this.entry(shop, rows.get(shop.domain), resynced, modes.get(shop.domain), census.shops),
    );
    const known = new Set(served.map((entry) => entry.shop));
    const left = [...rows.values()]
      .filter((row) => !known.has(row.shop))
      .map((row) => this.entry(null, row, resynced, undefined, census.shops, row.shop));
    return {
      shops: [...served, ...left],
      encryption: {
        currentKey: census.currentKey,
        secretsUnderOldKeys: census.underOldKeys,
        unreadableSecrets: census.unreadable,
      },
    };
  }

  async one(domain: string): Promise<ShopListEntryDto | undefined> {
    return (await this.all()).find((entry) => entry.shop === domain);
  }

  private entry(
    shop: ShopConfig | null,
    row: ShopSession | undefined,
    resynced: ReadonlySet<string>,
    mode: ShopModeState | undefined,
    secrets: ReadonlyMap<string, ShopSecretCount>,
    domain = shop?.domain ?? '',
  ): ShopListEntryDto {
    const installed = shop !== null && !this.shops.configured.includes(shop);
    const state = row?.state ?? 'active';
    const keySet = shop !== null && this.catalogs.hasKey(shop.domain);
    const migrated = shop !== null && this.tokens.isMigrated(shop.domain);
    const keyProblem = shop?.catalog.apiKeyProblem ?? null;
    return {
      shop: domain,
      authKind: migrated ? 'installed' : (shop?.auth.kind ?? (row?.authKind as ShopListEntryDto['authKind'])),
      source: shop === null ? 'gone' : installed ? 'installed' : 'configured',
      state,
      stateReason: row?.stateReason ?? null,
      tokenExpiresAt: row?.expiresAt?.toISOString() ?? null,
      scopes: row?.scope ? row.scope.split(',').map((scope) => scope.trim()) : null,
      lastRefreshAt: row?.refreshedAt?.toISOString() ?? null,
      refreshCount: row?.refreshCount ?? 0,
      subscriptions: row?.subscriptions ? row.subscriptions.split(',') : null,
      subscriptionsCheckedAt: row?.subscriptionsCheckedAt?.toISOString() ?? null,
      subscriptionsRecreated: row?.subscriptionsRecreated ?? 0,
      installedAt: row?.installedAt?.toISOString() ?? null,
      ignoredDeliveries: row?.ignoredDeliveries ?? 0,
      lastIgnoredDelivery: row?.lastIgnoredDelivery ?? null,
      catalogKeySet: keySet,
      catalogKeyProblem: keyProblem,
      secretsUnderOldKeys: secrets.get(domain)?.underOldKeys ?? 0,
      mappingFile: shop?.mappingFile ?? null,
      mode: mode?.mode ?? 'live',
      modePinned: mode?.pinned ?? false,
      nextStep: nextStepOf({
        domain,
        shop,
        installed,
        state,
        migrated,
        keySet,
        keyProblem,
        resynced: resynced.has(domain),
      }),
    };
  }
}

/** What the operator does next for a shop (null: nothing), from the facts of its entry. */
function nextStepOf(facts: {
  domain: string;
  shop: ShopConfig | null;
  installed: boolean;
  state: string;
  migrated: boolean;
  keySet: boolean;
  keyProblem: string | null;
  resynced: boolean;
}): string | null {
  const { domain, shop, state } = facts;
  if (facts.installed && facts.keyProblem !== null && (state === 'active' || state === 'needs_reauth')) {
    // A stored catalog key that cannot be decrypted (its key left CONNECTOR_ENCRYPTION_KEYS).
    const reinstall = state === 'needs_reauth' ? ', and have the merchant install the app again' : '';
    return `Set its catalog API key again (${facts.keyProblem}): PUT /admin/shops/${domain}/catalog-key (or connector shops catalog-key ${domain})${reinstall}; its syncs wait until then.`;
  }
  if (state !== 'active' || shop === null) return null;
  if (facts.migrated) {
    return `Migrated to expiring tokens: set CONNECTOR_SHOP_${shop.key}_AUTH=installed and remove its ACCESS_TOKEN.`;
  }
  if (!facts.installed) return null;
  // An active shop that installed the app: its catalog key, then its first resync (never started for them).
  if (!facts.keySet) {
    return `Set its catalog API key: PUT /admin/shops/${domain}/catalog-key (or connector shops catalog-key ${domain}); its syncs wait until then.`;
  }
  if (!facts.resynced)
    return `Offered: a first resync of the whole shop, POST /admin/resync?shop=${domain} (or connector resync --shop ${domain}).`;
  return null;
}
