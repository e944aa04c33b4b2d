/**
 * Which stored secret a value is (each `TokenCipher` output the connector keeps): a shop's
 * catalog key and token pair, an alert target's URL and signing secret.
 */
export type SecretKind = 'catalog API key' | 'access token' | 'refresh token' | 'URL' | 'signing secret';

/** Whose secret a value is: a shop's (named by its domain) or an alert target's (by its id). */
export type SecretHolder = 'shop' | 'alert target';

/** One encrypted value as its table holds it, for the re-encryption and the count of old keys. */
export interface StoredSecret {
  holder: SecretHolder;
  /** The holder's key in its table: a shop's domain, an alert target's id. */
  id: string;
  kind: SecretKind;
  value: string;
}

/**
 * Why: `StoredSecrets` re-encrypts and counts every encrypted value through the repository that
 * owns its table (`shops`, `shop_sessions`, and those later layers register: `alert_targets`),
 * the same way for each: pages of the values not under the newest key, and a replacement that
 * only lands on the value it read.
 */
export interface SecretStore {
  /** Values not encrypted under `keyId`, of holders after `after` (an `id` it gave; '' first), at most `limit` holders. */
  secretsNotUnder(keyId: string, after: string, limit: number): Promise<StoredSecret[]>;
  /** Stores `to` in place of `secret`, only if the row still holds its value; whether it did. */
  replaceSecret(secret: StoredSecret, to: string): Promise<boolean>;
}
