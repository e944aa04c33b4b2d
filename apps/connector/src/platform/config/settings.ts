// biome-ignore-all lint/suspicious/noUnsafeDeclarationMerging: each slice is an abstract class (the injection token) merged with its section's interface (its shape); the class is never instantiated, the module provides the validated section as its value.
import type { AdminConfig } from './admin-config.js';
import type { AlertsConfig } from './alerts-config.js';
import type { ConnectorConfig } from './connector.config.js';
import type { EncryptionConfig } from './encryption-config.js';
import type { EnrichmentConfig } from './enrichment-config.js';
import type {
  CatalogConfig,
  DatabaseConfig,
  HttpConfig,
  QueueConfig,
  ShopifyConfig,
} from './infrastructure-config.js';
import type { InstallConfig } from './install-config.js';
import type { MediaConfig } from './media-config.js';
import type { OperationsConfig, RetentionConfig } from './operations-config.js';
import type { InboxConfig, ReconcileConfig, ResyncConfig, SyncConfig } from './sync-config.js';

// Why: each class injects the configuration slice it reads, so a reader and a test see which
// settings it uses. Each slice is an abstract class (the injection token, matched by type) merged
// with its section's interface (the shape); `settingsProviders` gives each the validated section.

/** `ConnectorConfig.http`. */
export abstract class HttpSettings {}
export interface HttpSettings extends HttpConfig {}
/** `ConnectorConfig.database`. */
export abstract class DatabaseSettings {}
export interface DatabaseSettings extends DatabaseConfig {}
/** `ConnectorConfig.queue`. */
export abstract class QueueSettings {}
export interface QueueSettings extends QueueConfig {}
/** `ConnectorConfig.shopify`. */
export abstract class ShopifySettings {}
export interface ShopifySettings extends ShopifyConfig {}
/** `ConnectorConfig.installs`. */
export abstract class InstallSettings {}
export interface InstallSettings extends InstallConfig {}
/** `ConnectorConfig.encryption`. */
export abstract class EncryptionSettings {}
export interface EncryptionSettings extends EncryptionConfig {}
/** `ConnectorConfig.sync`. */
export abstract class SyncSettings {}
export interface SyncSettings extends SyncConfig {}
/** `ConnectorConfig.inbox`. */
export abstract class InboxSettings {}
export interface InboxSettings extends InboxConfig {}
/** `ConnectorConfig.catalog`. */
export abstract class CatalogSettings {}
export interface CatalogSettings extends CatalogConfig {}
/** `ConnectorConfig.media`. */
export abstract class MediaSettings {}
export interface MediaSettings extends MediaConfig {}
/** `ConnectorConfig.resync`. */
export abstract class ResyncSettings {}
export interface ResyncSettings extends ResyncConfig {}
/** `ConnectorConfig.reconcile`. */
export abstract class ReconcileSettings {}
export interface ReconcileSettings extends ReconcileConfig {}
/** `ConnectorConfig.enrichment`. */
export abstract class EnrichmentSettings {}
export interface EnrichmentSettings extends EnrichmentConfig {}
/** `ConnectorConfig.admin`. */
export abstract class AdminSettings {}
export interface AdminSettings extends AdminConfig {}
/** `ConnectorConfig.operations`. */
export abstract class OperationsSettings {}
export interface OperationsSettings extends OperationsConfig {}
/** `ConnectorConfig.retention`. */
export abstract class RetentionSettings {}
export interface RetentionSettings extends RetentionConfig {}
/** `ConnectorConfig.alerts`. */
export abstract class AlertSettings {}
export interface AlertSettings extends AlertsConfig {}

/** Every slice with its section of the validated configuration (the shops are `Shops`, in `shops/`). */
export function settingsProviders(
  config: ConnectorConfig,
): Array<{ provide: abstract new () => object; useValue: object }> {
  return [
    { provide: HttpSettings, useValue: config.http },
    { provide: DatabaseSettings, useValue: config.database },
    { provide: QueueSettings, useValue: config.queue },
    { provide: ShopifySettings, useValue: config.shopify },
    { provide: InstallSettings, useValue: config.installs },
    { provide: EncryptionSettings, useValue: config.encryption },
    { provide: SyncSettings, useValue: config.sync },
    { provide: InboxSettings, useValue: config.inbox },
    { provide: CatalogSettings, useValue: config.catalog },
    { provide: MediaSettings, useValue: config.media },
    { provide: ResyncSettings, useValue: config.resync },
    { provide: ReconcileSettings, useValue: config.reconcile },
    { provide: EnrichmentSettings, useValue: config.enrichment },
    { provide: AdminSettings, useValue: config.admin },
    { provide: OperationsSettings, useValue: config.operations },
    { provide: RetentionSettings, useValue: config.retention },
    { provide: AlertSettings, useValue: config.alerts },
  ];
}
