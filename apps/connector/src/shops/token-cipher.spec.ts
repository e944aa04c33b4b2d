import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Secret } from '../platform/config/secret.js';
import { TokenCipher } from './token-cipher.js';

const key = () => new Secret(randomBytes(32).toString('base64'));

describe('TokenCipher', () => {
  it('encrypts with the first key, never storing the token in clear, and decrypts it back', () => {
    const cipher = new TokenCipher([key()]);
    const stored = cipher.encrypt('shpat_secret');
    expect(stored).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(stored).not.toContain('shpat_secret');
    expect(cipher.encrypt('shpat_secret')).not.toBe(stored);
    expect(cipher.decrypt(stored)).toBe('shpat_secret');
  });

  it('decrypts with any listed key after a rotation, and refuses a value of a dropped key', () => {
    const [oldKey, newKey] = [key(), key()];
    const stored = new TokenCipher([oldKey]).encrypt('shprt_refresh');
    const rotated = new TokenCipher([newKey, oldKey]);
    expect(rotated.decrypt(stored)).toBe('shprt_refresh');
    expect(rotated.encrypt('x').split(':')[1]).not.toBe(stored.split(':')[1]);
    expect(() => new TokenCipher([newKey]).decrypt(stored)).toThrow(/not in CONNECTOR_ENCRYPTION_KEYS/);
  });

  it('names the key of a stored value without decrypting it, and knows its own keys', () => {
    const [oldKey, newKey] = [key(), key()];
    const stored = new TokenCipher([oldKey]).encrypt('shpat_secret');
    const rotated = new TokenCipher([newKey, oldKey]);
    expect(TokenCipher.keyIdOf(stored)).toBe(TokenCipher.fingerprint(oldKey));
    expect(rotated.currentKeyId).toBe(TokenCipher.fingerprint(newKey));
    expect(rotated.knows(TokenCipher.fingerprint(oldKey))).toBe(true);
    expect(new TokenCipher([newKey]).knows(TokenCipher.fingerprint(oldKey))).toBe(false);
    expect(TokenCipher.keyIdOf('shpat_plain')).toBeNull();
    expect(new TokenCipher([]).currentKeyId).toBeNull();
  });

  it('refuses a tampered value', () => {
    const cipher = new TokenCipher([key()]);
    const parts = cipher.encrypt('shpat_secret').split(':');
    parts[4] = Buffer.from('shpat_other!').toString('base64');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow();
  });
});
