import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { EncryptionSettings } from '../platform/config/settings.js';
import { InstalledShopsRepository } from './installed-shops.repository.js';
import { ShopSessionRepository } from './shop-sessions.repository.js';
import type { SecretHolder, SecretKind, SecretStore, StoredSecret } from './stored-secret.js';
import { TokenCipher } from './token-cipher.js';

/** Holders (shops, alert targets) read (and their secrets re-encrypted) per page. */
const BATCH = 100;
/** Holders named in the boot's refusal (the rest are counted). */
const NAMED = 20;

/** One shop's secrets not under the newest key. */
export interface ShopSecretCount {
  /** Under a key still listed, not the first: the re-encryption moves them. */
  underOldKeys: number;
  /** Under a key no longer listed (or not readable at all): lost until set again. */
  unreadable: number;
}

/** Where the stored secrets stand against `CONNECTOR_ENCRYPTION_KEYS`. */
export interface SecretCensus {
  /** The fingerprint of the key that encrypts (the first); null without keys. */
  currentKey: string | null;
  /** Every holder's (shops', alert targets'). */
  underOldKeys: number;
  unreadable: number;
  /** Only shops with a secret not under the newest key (an alert target's list shows its own `problem`). */
  shops: Map<string, ShopSecretCount>;
  /** The unreadable secrets, with the key each names (null: not in the v1 format). */
  unreadableSecrets: Array<StoredSecret & { keyId: string | null }>;
}

/** `POST /admin/shops/reencrypt`, and the boot's pass. */
export interface ReencryptOutcome {
  currentKey: string | null;
  /** Secrets this pass re-encrypted under the newest key. */
  reencrypted: number;
  /** What is left under old keys after it (another replica's pass, a value that changed meanwhile). */
  secretsUnderOldKeys: number;
  unreadableSecrets: number;
}

/**
 * Why: a rotation of `CONNECTOR_ENCRYPTION_KEYS` must let the old key go without stranding a
 * shop or an alert target, and a catalog key or a target is encrypted once, when the operator
 * sets it. So every stored secret (catalog keys in `shops`, token pairs in `shop_sessions`, and
 * the stores later layers `register` at module init: alert targets' URLs and secrets) not under
 * the newest key is re-encrypted under it, at boot (in the background, logged) and on demand, in
 * pages, through the owning repositories, each replacement landing only on the value it read (a
 * renewal, a key set, another replica's pass win). And the boot is refused while a stored secret
 * names a key no longer listed, naming its shops and alert targets, unless the operator declared
 * that key lost (`CONNECTOR_ENCRYPTION_LOST_KEYS`): those shops are then served as failing until
 * repaired, those targets shown with their problem. The refusal waits for the application
 * bootstrap, once every module has started (so every store has registered), as `RegistrationsCheck` does.
 */
@Injectable()
export class StoredSecrets implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('StoredSecrets');
  private readonly cipher: TokenCipher;
  private readonly stores: SecretStore[];
  private running: Promise<ReencryptOutcome> | null = null;
  private stopped = false;

  constructor(
    installed: InstalledShopsRepository,
    sessions: ShopSessionRepository,
    private readonly encryption: EncryptionSettings,
  ) {
    this.cipher = new TokenCipher(encryption.keys);
    this.stores = [installed, sessions];
  }

  /** A later layer's table of values encrypted with the same keys (at its module init). */
  register(store: SecretStore): void {
    if (this.stores.includes(store)) throw new Error('A secret store is registered twice');
    this.stores.push(store);
  }

  /**
   * The boot stops while a stored secret names a key that left the list (and was not declared
   * lost); then each replica moves what is left under old keys, in the background.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.refuseStranded();
    if (this.cipher.currentKeyId === null) return;
    this.reencrypt().catch((error: unknown) => {
      this.logger.warn(`Re-encrypting the stored secrets failed: ${(error as Error).message}`);
    });
  }

  private async refuseStranded(): Promise<void> {
    const census = await this.census();
    const lost = new Set(this.encryption.lostKeys);
    const stranded = census.unreadableSecrets.filter(
      (secret) => secret.keyId !== null && !lost.has(secret.keyId),
    );
    if (stranded.length > 0) throw new Error(refusal(stranded));
    const declared = census.unreadableSecrets.filter((s) => s.keyId !== null && lost.has(s.keyId));
    if (declared.length > 0) {
      this.logger.warn(
        `${declared.length} stored secrets of ${holdersOf(declared)} are under keys declared lost (CONNECTOR_ENCRYPTION_LOST_KEYS): ${lostConsequences(declared)}`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  /** Every stored secret not under the newest key, counted by the key its value names (nothing decrypted). */
  async census(): Promise<SecretCensus> {
    const currentKey = this.cipher.currentKeyId;
    const census: SecretCensus = {
      currentKey,
      underOldKeys: 0,
      unreadable: 0,
      shops: new Map(),
      unreadableSecrets: [],
    };
    if (currentKey === null) return census;
    await this.eachNotUnder(currentKey, async (secret) => {
      const keyId = TokenCipher.keyIdOf(secret.value);
      const readable = keyId !== null && this.cipher.knows(keyId);
      if (secret.holder === 'shop') {
        const count = census.shops.get(secret.id) ?? { underOldKeys: 0, unreadable: 0 };
        census.shops.set(secret.id, count);
        if (readable) count.underOldKeys += 1;
        else count.unreadable += 1;
      }
      if (readable) {
        census.underOldKeys += 1;
      } else {
        census.unreadable += 1;
        census.unreadableSecrets.push({ ...secret, keyId });
      }
    });
    return census;
  }

  /** Re-encrypts under the newest key what an older listed key holds; one pass at a time per process. */
  reencrypt(): Promise<ReencryptOutcome> {
    if (this.running !== null) return this.running;
    this.running = this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<ReencryptOutcome> {
    const currentKey = this.cipher.currentKeyId;
    let reencrypted = 0;
    if (currentKey !== null) {
      await this.eachNotUnder(
        currentKey,
        async (secret, store) => {
          const keyId = TokenCipher.keyIdOf(secret.value);
          if (keyId === null || !this.cipher.knows(keyId)) return;
          let plain: string;
          try {
            plain = this.cipher.decrypt(secret.value);
          } catch {
            return; // Tampered with: left as it is (the loader and the tokens show it unreadable).
          }
          if (await store.replaceSecret(secret, this.cipher.encrypt(plain))) reencrypted += 1;
        },
        (read) => {
          if (reencrypted > 0)
            this.logger.log(
              `Re-encrypting the stored secrets under key ${currentKey}: ${reencrypted} done, ${read} read`,
            );
        },
      );
    }
    const census = await this.census();
    const outcome = {
      currentKey,
      reencrypted,
      secretsUnderOldKeys: census.underOldKeys,
      unreadableSecrets: census.unreadable,
    };
    if (reencrypted > 0 || census.underOldKeys > 0) {
      this.logger.log(
        `${reencrypted} stored secrets re-encrypted under key ${currentKey}; ${census.underOldKeys} left under old keys, ${census.unreadable} unreadable`,
      );
    }
    return outcome;
  }

  /** Every secret not under `keyId`, store by store, page by page (stops when the module does). */
  private async eachNotUnder(
    keyId: string,
    visit: (secret: StoredSecret, store: SecretStore) => Promise<void>,
    progress: (read: number) => void = () => undefined,
  ): Promise<void> {
    let read = 0;
    for (const store of this.stores) {
      let after = '';
      while (!this.stopped) {
        const page = await store.secretsNotUnder(keyId, after, BATCH);
        const last = page.at(-1);
        if (last === undefined) break;
        for (const secret of page) await visit(secret, store);
        read += page.length;
        progress(read);
        after = last.id;
      }
    }
  }
}

/** The boot's refusal: the keys, the shops and alert targets and their secrets it would strand, and what to do. */
function refusal(stranded: Array<StoredSecret & { keyId: string | null }>): string {
  const keys = [...new Set(stranded.map((s) => s.keyId))].join(', ');
  const byHolder = new Map<string, Set<SecretKind>>();
  for (const secret of stranded) {
    const name = secret.holder === 'shop' ? secret.id : `alert target ${secret.id}`;
    const kinds = byHolder.get(name) ?? new Set<SecretKind>();
    kinds.add(secret.kind);
    byHolder.set(name, kinds);
  }
  const named = [...byHolder.entries()]
    .slice(0, NAMED)
    .map(([holder, kinds]) => `${holder} (${[...kinds].join(', ')})`);
  const more = byHolder.size > NAMED ? ` and ${byHolder.size - NAMED} more` : '';
  return (
    `CONNECTOR_ENCRYPTION_KEYS no longer lists key ${keys}, which still encrypts ${stranded.length} stored secrets of ${holdersOf(stranded)}: ${named.join(', ')}${more}. ` +
    'Put the key back after the newest one and restart: every replica re-encrypts the stored secrets under the newest key at boot (or run connector shops reencrypt); ' +
    'drop the old key once GET /admin/shops shows encryption.secretsUnderOldKeys at 0. ' +
    `If the key is lost, set CONNECTOR_ENCRYPTION_LOST_KEYS=${keys}: ${lostConsequences(stranded)}.`
  );
}

/** How many shops and alert targets hold `secrets`: "2 shops and 1 alert targets". */
function holdersOf(secrets: readonly StoredSecret[]): string {
  const count = (holder: SecretHolder) =>
    new Set(secrets.filter((s) => s.holder === holder).map((s) => s.id)).size;
  const [shops, targets] = [count('shop'), count('alert target')];
  return [
    ...(shops > 0 || targets === 0 ? [`${shops} shops`] : []),
    ...(targets > 0 ? [`${targets} alert targets`] : []),
  ].join(' and ');
}

/** What becomes of the holders of secrets under a key declared lost. */
function lostConsequences(secrets: readonly StoredSecret[]): string {
  const holders = new Set(secrets.map((s) => s.holder));
  return [
    ...(holders.has('shop')
      ? [
          'those shops are then served as failing until their catalog key is set again and the app installed again',
        ]
      : []),
    ...(holders.has('alert target')
      ? [
          'those alert targets cannot be delivered to (GET /admin/alert-targets shows their problem) until removed and added again',
        ]
      : []),
  ].join('; ');
}
