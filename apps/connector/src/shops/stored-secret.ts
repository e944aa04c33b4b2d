/** Which of a shop's stored secrets a value is (each `TokenCipher` output the connector keeps). */
export type SecretKind = 'catalog API key' | 'access token' | 'refresh token';

/** One encrypted value as its table holds it, for the re-encryption and the count of old keys. */
export interface StoredSecret {
  shop: string;
  kind: SecretKind;
  value: string;
}

/**
 * Why: `StoredSecrets` re-encrypts and counts every encrypted value through the repository that
 * owns its table (`shops`, `shop_sessions`), the same way for each: pages of the values not
 * under the newest key, and a replacement that only lands on the value it read.
 */
export interface SecretStore {
  /** Values not encrypted under `keyId`, of shops after `after` (by domain), at most `limit` shops. */
  secretsNotUnder(keyId: string, after: string, limit: number): Promise<StoredSecret[]>;
  /** Stores `to` in place of `secret`, only if the row still holds its value; whether it did. */
  replaceSecret(secret: StoredSecret, to: string): Promise<boolean>;
}
