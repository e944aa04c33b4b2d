import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InstallConfig } from '../platform/config/install-config.js';
import { Secret } from '../platform/config/secret.js';
import type { InstalledShop } from './installed-shop.entity.js';
import { installedShopLoader } from './installed-shop-loader.js';
import type { InstalledShopsRepository } from './installed-shops.repository.js';
import { TokenCipher } from './token-cipher.js';

const settings = {
  app: { clientId: 'id', clientSecret: new Secret('secret') },
  webhookSecrets: [new Secret('secret')],
  apiVersion: '2026-07',
  catalogUrl: 'http://catalog',
  defaultMappingFile: null,
} as unknown as InstallConfig;
const key = () => new Secret(randomBytes(32).toString('base64'));

function rowsOf(rows: Array<Pick<InstalledShop, 'shop' | 'catalogApiKey'>>): InstalledShopsRepository {
  return {
    all: async () => rows.map((row) => ({ ...row, mappingFile: null })),
  } as unknown as InstalledShopsRepository;
}

describe('installedShopLoader', () => {
  it('serves each row with its catalog key decrypted; none until one is set', async () => {
    const cipher = new TokenCipher([key()]);
    const load = installedShopLoader(
      rowsOf([
        { shop: 'a.myshopify.com', catalogApiKey: cipher.encrypt('cat-key-a') },
        { shop: 'b.myshopify.com', catalogApiKey: null },
      ]),
      settings,
      cipher,
    );
    const served = await load();
    expect(served.map((s) => [s.domain, s.catalog.apiKey.reveal(), s.catalog.apiKeyProblem])).toEqual([
      ['a.myshopify.com', 'cat-key-a', undefined],
      ['b.myshopify.com', '', undefined],
    ]);
  });

  it('keeps serving a shop whose key was encrypted under a dropped key: no key, and the reason', async () => {
    const [dropped, kept] = [key(), key()];
    const stored = new TokenCipher([dropped]).encrypt('cat-key-a');
    const load = installedShopLoader(
      rowsOf([{ shop: 'a.myshopify.com', catalogApiKey: stored }]),
      settings,
      new TokenCipher([kept]),
    );
    const [shop] = await load();
    expect(shop?.domain).toBe('a.myshopify.com');
    expect(shop?.catalog.apiKey.reveal()).toBe('');
    expect(shop?.catalog.apiKeyProblem).toBe(
      `its catalog API key cannot be read: it was encrypted with key ${TokenCipher.fingerprint(dropped)}, not in CONNECTOR_ENCRYPTION_KEYS`,
    );
  });
});
