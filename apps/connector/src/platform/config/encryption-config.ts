import type { Env, EnvReader } from '#lib/config';
import type { Secret } from './secret.js';
import { readSecretList, type SecretFileReader } from './secret-reader.js';
import type { ShopConfig } from './shop-config.js';

/** Bytes of one `CONNECTOR_ENCRYPTION_KEYS` key (AES-256). */
export const ENCRYPTION_KEY_BYTES = 32;

/** The keys that encrypt the shops' tokens at rest (docs/shop-auth.md, "How each shop authenticates"). */
export interface EncryptionConfig {
  /** Base64 32-byte keys: the first encrypts, every one decrypts (rotation: prepend the new key). */
  keys: Secret[];
  /**
   * `CONNECTOR_ENCRYPTION_LOST_KEYS`: fingerprints (as stored values and the boot's refusal name
   * them) of keys the operator lost. The boot then serves the shops whose secrets they encrypt,
   * as failing until those are set again, instead of refusing to start.
   */
  lostKeys: string[];
}

/** A key's fingerprint: the first 8 hex digits of the SHA-256 of its bytes. */
const KEY_ID = /^[0-9a-f]{8}$/;

/**
 * `CONNECTOR_ENCRYPTION_KEYS` (or `_FILE`): comma- or newline-separated base64 keys of 32 bytes.
 * Required as soon as one shop's tokens are stored (any auth but `static`, or installs open): the
 * boot stops, naming it.
 */
export function readEncryption(
  read: EnvReader,
  env: Env,
  readFile: SecretFileReader,
  shops: readonly ShopConfig[],
  installsOpen = false,
): EncryptionConfig {
  const keys = readSecretList(read, env, 'CONNECTOR_ENCRYPTION_KEYS', readFile) ?? [];
  keys.forEach((key, index) => {
    const bytes = Buffer.from(key.reveal(), 'base64');
    if (bytes.length !== ENCRYPTION_KEY_BYTES || bytes.toString('base64') !== key.reveal()) {
      read.problems.push(
        `CONNECTOR_ENCRYPTION_KEYS: key ${index + 1} is not the base64 of ${ENCRYPTION_KEY_BYTES} bytes (openssl rand -base64 32)`,
      );
    }
  });
  // A shop whose auth had problems has none (the boot stops on those problems anyway).
  const needing = shops
    .map((shop) => ({ domain: shop.domain, kind: (shop.auth as ShopConfig['auth'] | null)?.kind }))
    .filter((shop) => shop.kind !== undefined && shop.kind !== 'static');
  if (keys.length === 0 && installsOpen) {
    read.problems.push(
      'CONNECTOR_ENCRYPTION_KEYS is required: shops that install the app (CONNECTOR_SHOPIFY_INSTALLS=open) keep their tokens and catalog keys encrypted in PostgreSQL',
    );
  } else if (keys.length === 0 && needing.length > 0) {
    const names = needing.map((shop) => `${shop.domain} (${shop.kind})`).join(', ');
    read.problems.push(
      `CONNECTOR_ENCRYPTION_KEYS is required: ${names} keep their tokens encrypted in PostgreSQL`,
    );
  }
  const lostKeys = read
    .string('CONNECTOR_ENCRYPTION_LOST_KEYS', '')
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
  const bad = lostKeys.filter((id) => !KEY_ID.test(id));
  if (bad.length > 0) {
    read.problems.push(
      `CONNECTOR_ENCRYPTION_LOST_KEYS must list key fingerprints (8 hex digits, as the boot's refusal names them), got "${bad.join('", "')}"`,
    );
  }
  return { keys, lostKeys };
}
