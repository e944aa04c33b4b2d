import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { SHOP_AUTH_KINDS, type ShopAuthKind } from '../../platform/config/shop-auth-config.js';
import { SHOP_MODES, type ShopMode } from '../../platform/config/shop-mode.js';
import { SHOP_STATES, type ShopState } from '../../shops/shop-session.entity.js';

const nullableText = (description?: string) =>
  ApiProperty({ type: 'string', nullable: true, ...(description ? { description } : {}) });
const nullableTime = (description?: string) =>
  ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    ...(description ? { description } : {}),
  });

/** One shop as `GET /admin/shops` shows it (never a token). */
@ApiSchema({ name: 'ShopEntry' })
export class ShopListEntryDto {
  @ApiProperty({ example: 'demo.myshopify.com' }) shop!: string;
  @ApiProperty({ enum: SHOP_AUTH_KINDS }) authKind!: ShopAuthKind;
  @ApiProperty({
    enum: ['configured', 'installed', 'gone'],
    description:
      '`configured`: in `CONNECTOR_SHOPS`; `installed`: it installed the app itself; `gone`: no longer served (redacted).',
  })
  source!: 'configured' | 'installed' | 'gone';
  @ApiProperty({ enum: SHOP_STATES }) state!: ShopState;
  @nullableText("Why the shop is not `active` (Shopify's refusal, the uninstall); null when active.")
  stateReason!: string | null;
  @nullableTime('When the current access token expires; null: it does not (static, non-expiring installed).')
  tokenExpiresAt!: string | null;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The scopes Shopify granted with the current token; null: not known (static token).',
  })
  scopes!: string[] | null;
  @nullableTime() lastRefreshAt!: string | null;
  @ApiProperty({ type: 'integer', description: 'Tokens obtained for the shop since its row was made.' })
  refreshCount!: number;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: "The connector's topics subscribed at the last scheduled check; null before one.",
  })
  subscriptions!: string[] | null;
  @nullableTime() subscriptionsCheckedAt!: string | null;
  @ApiProperty({ type: 'integer', description: 'Subscriptions the check had to create again.' })
  subscriptionsRecreated!: number;
  @nullableTime("When the shop's current installation began, as the connector saw it; null: not seen.")
  installedAt!: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'Lifecycle deliveries ignored as older than the current installation.',
  })
  ignoredDeliveries!: number;
  @nullableText('The last of them: its topic, trigger time and why; null: none.')
  lastIgnoredDelivery!: string | null;
  @ApiProperty() catalogKeySet!: boolean;
  @nullableText('Why a stored catalog key cannot be used (it cannot be decrypted); null: none.')
  catalogKeyProblem!: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'Its stored secrets under an older key of `CONNECTOR_ENCRYPTION_KEYS`, still to re-encrypt.',
  })
  secretsUnderOldKeys!: number;
  @nullableText('The mapping file the shop syncs with (its own or the default); null: none.')
  mappingFile!: string | null;
  @ApiProperty({
    enum: SHOP_MODES,
    description: '`live`: its writes are sent; `shadow`: they are recorded as planned writes.',
  })
  mode!: ShopMode;
  @ApiProperty({
    description: 'The mode is pinned by `CONNECTOR_SHOP_<KEY>_MODE` (the admin API cannot switch it).',
  })
  modePinned!: boolean;
  @nullableText('What the operator does next (set the catalog key, start the first resync); null: nothing.')
  nextStep!: string | null;
}

/** Where the stored secrets stand against `CONNECTOR_ENCRYPTION_KEYS` (README, "Rotating the encryption key"). */
@ApiSchema({ name: 'EncryptionState' })
export class EncryptionStateDto {
  @nullableText('The fingerprint of the key that encrypts (the first); null without keys.')
  currentKey!: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'Secrets under an older listed key: the old key can be dropped once this is 0.',
  })
  secretsUnderOldKeys!: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Secrets (of shops and alert targets) under a key no longer listed (declared lost): their shops wait until repaired, their alert targets until added again.',
  })
  unreadableSecrets!: number;
}

/** `GET /admin/shops`. */
@ApiSchema({ name: 'ShopList' })
export class ShopListDto {
  @ApiProperty({
    type: [ShopListEntryDto],
    description:
      'One page of the shops: worst auth state first (needs_reauth, uninstalled, redacted, active), then by domain.',
  })
  shops!: ShopListEntryDto[];
  @ApiProperty({ type: 'integer', description: 'The shops that match `state` and `q` (every page).' })
  total!: number;
  @ApiProperty({ type: 'integer', description: 'The shops skipped before this page.' }) offset!: number;
  @ApiProperty({ type: 'integer', description: 'The most shops a page holds.' }) limit!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Every shop (before the filter) counted by auth state.',
  })
  stateCounts!: Record<string, number>;
  @ApiProperty({ type: EncryptionStateDto }) encryption!: EncryptionStateDto;
}

/** `POST /admin/shops/reencrypt`: what the pass did and what is left. */
@ApiSchema({ name: 'ShopSecretsReencrypted' })
export class ReencryptDto extends EncryptionStateDto {
  @ApiProperty({ type: 'integer', description: 'Secrets this pass re-encrypted under the newest key.' })
  reencrypted!: number;
}
