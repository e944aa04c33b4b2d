import type { ShopAuthKind } from '../../platform/config/connector.config.js';
import type { ShopMode } from '../../platform/config/shop-mode.js';
import type { ShopState } from '../../shops/shop-session.entity.js';

/** One shop as `GET /admin/shops` shows it (never a token). */
export interface ShopListEntryDto {
  shop: string;
  authKind: ShopAuthKind;
  /** `configured`: in `CONNECTOR_SHOPS`; `installed`: it installed the app itself; `gone`: no longer served (redacted). */
  source: 'configured' | 'installed' | 'gone';
  state: ShopState;
  /** Why the shop is not `active` (Shopify's refusal, the uninstall); null when active. */
  stateReason: string | null;
  /** When the current access token expires; null: it does not (static, non-expiring installed). */
  tokenExpiresAt: string | null;
  /** The scopes Shopify granted with the current token; null: not known (static token). */
  scopes: string[] | null;
  lastRefreshAt: string | null;
  /** Tokens obtained for the shop since its row was made. */
  refreshCount: number;
  /** The connector's topics subscribed at the last scheduled check; null before one. */
  subscriptions: string[] | null;
  subscriptionsCheckedAt: string | null;
  /** Subscriptions the check had to create again. */
  subscriptionsRecreated: number;
  /** When the shop's current installation began, as the connector saw it; null: not seen. */
  installedAt: string | null;
  /** Lifecycle deliveries ignored as older than the current installation (README, "Uninstall and redact"). */
  ignoredDeliveries: number;
  /** The last of them: its topic, trigger time and why; null: none. */
  lastIgnoredDelivery: string | null;
  catalogKeySet: boolean;
  /** Why a stored catalog key cannot be used (it cannot be decrypted); null: none. The shop shows failing. */
  catalogKeyProblem: string | null;
  /** Its stored secrets (catalog key, tokens) under an older key of `CONNECTOR_ENCRYPTION_KEYS`, still to re-encrypt. */
  secretsUnderOldKeys: number;
  /** The mapping file the shop syncs with (its own or the default); null: none. */
  mappingFile: string | null;
  /** `live`: its writes are sent; `shadow`: they are recorded as planned writes (issue 31). */
  mode: ShopMode;
  /** The mode is pinned by `CONNECTOR_SHOP_<KEY>_MODE` (the admin API cannot switch it). */
  modePinned: boolean;
  /** What the operator does next (set the catalog key, start the first resync); null: nothing. */
  nextStep: string | null;
}

/** Where the stored secrets stand against `CONNECTOR_ENCRYPTION_KEYS` (README, "Rotating the encryption key"). */
export interface EncryptionStateDto {
  /** The fingerprint of the key that encrypts (the first); null without keys. */
  currentKey: string | null;
  /** Secrets under an older listed key: the old key can be dropped once this is 0. */
  secretsUnderOldKeys: number;
  /** Secrets under a key no longer listed (declared lost): their shops wait until repaired. */
  unreadableSecrets: number;
}

/** `GET /admin/shops`. */
export interface ShopListDto {
  shops: ShopListEntryDto[];
  encryption: EncryptionStateDto;
}

/** `POST /admin/shops/reencrypt`: what the pass did and what is left. */
export interface ReencryptDto extends EncryptionStateDto {
  /** Secrets this pass re-encrypted under the newest key. */
  reencrypted: number;
}
