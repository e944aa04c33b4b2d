import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Secret } from '../platform/config/secret.js';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

interface Key {
  id: string;
  bytes: Buffer;
}

/**
 * Why: the shops' access and refresh tokens and catalog keys are stored encrypted (AES-256-GCM),
 * so a database dump alone gives no access to a store. The first of `CONNECTOR_ENCRYPTION_KEYS`
 * encrypts, every one decrypts (rotation: `StoredSecrets` re-encrypts every stored value under the
 * first, then the old key can go). A stored value names its key by a short fingerprint, never the
 * key, so what is left under an old key is counted without decrypting anything.
 */
export class TokenCipher {
  private readonly keys: Key[];

  constructor(keys: readonly Secret[]) {
    this.keys = keys.map((key) => ({
      id: TokenCipher.fingerprint(key),
      bytes: Buffer.from(key.reveal(), 'base64'),
    }));
  }

  /** The fingerprint of the key that encrypts (the first); null without keys. */
  get currentKeyId(): string | null {
    return this.keys[0]?.id ?? null;
  }

  /** Whether a configured key has this fingerprint (one that can decrypt its values). */
  knows(keyId: string): boolean {
    return this.keys.some((key) => key.id === keyId);
  }

  /** The fingerprint a stored value names its key by; null when it is not in the v1 format. */
  static keyIdOf(stored: string): string | null {
    const [version, keyId] = stored.split(':');
    return version === VERSION && keyId !== undefined && keyId !== '' ? keyId : null;
  }

  /** The fingerprint of a base64 key, as stored values name it (`CONNECTOR_ENCRYPTION_LOST_KEYS`). */
  static fingerprint(key: Secret): string {
    return createHash('sha256').update(Buffer.from(key.reveal(), 'base64')).digest('hex').slice(0, 8);
  }

  /** `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64 parts). */
  encrypt(plain: string): string {
    const key = this.keys[0];
    if (key === undefined) throw new Error('CONNECTOR_ENCRYPTION_KEYS is not set: no token can be stored');
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, key.bytes, iv);
    const text = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), text].map((part) => part.toString('base64'));
    return [VERSION, key.id, ...parts].join(':');
  }

  /** The plain text; throws when no configured key made it (the key was dropped too early). */
  decrypt(stored: string): string {
    const [version, keyId, iv, tag, text] = stored.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || text === undefined) {
      throw new Error('it is not in the v1 format');
    }
    const key = this.keys.find((k) => k.id === keyId);
    if (key === undefined) {
      throw new Error(`it was encrypted with key ${keyId}, not in CONNECTOR_ENCRYPTION_KEYS`);
    }
    const decipher = createDecipheriv(ALGORITHM, key.bytes, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(text, 'base64')), decipher.final()]).toString('utf8');
  }
}
