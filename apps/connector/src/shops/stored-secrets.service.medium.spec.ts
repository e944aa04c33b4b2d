import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import { Secret } from '../platform/config/secret.js';
import type { EncryptionSettings } from '../platform/config/settings.js';
import { InstalledShop } from './installed-shop.entity.js';
import { InstalledShopsRepository } from './installed-shops.repository.js';
import { ShopSession } from './shop-session.entity.js';
import { ShopSessionRepository } from './shop-sessions.repository.js';
import { StoredSecrets } from './stored-secrets.service.js';
import { TokenCipher } from './token-cipher.js';

// StoredSecrets against real PostgreSQL (the connector's migrations, a schema of this file's
// own): every encrypted value of `shops` and `shop_sessions` re-encrypted under the newest key,
// by two replicas at once without a lost or doubled write; the count of what is left; and the
// boot refused while a value names a key no longer listed, unless it was declared lost.
const database = mediumDatabase('secrets', [ShopSession, InstalledShop], { poolSize: 6 });
const { schema } = database;
let dataSource: DataSource;

const newKey = () => new Secret(randomBytes(32).toString('base64'));
const keysOf = (keys: Secret[], lostKeys: string[] = []) => ({ keys, lostKeys }) as EncryptionSettings;
const replica = (keys: Secret[], lostKeys: string[] = []) =>
  new StoredSecrets(
    new InstalledShopsRepository(dataSource.getRepository(InstalledShop)),
    new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    keysOf(keys, lostKeys),
  );

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

describe('StoredSecrets', () => {
  const shops: string[] = [];

  /** `count` installed shops, each with a catalog key and a token pair encrypted under `key`. */
  const seed = async (key: Secret, count: number) => {
    const cipher = new TokenCipher([key]);
    const made: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const shop = `${uniqueId('s')}.myshopify.com`;
      made.push(shop);
      await dataSource.query(
        `INSERT INTO "${schema}".shops (shop, catalog_api_key, installed_at, updated_at) VALUES ($1, $2, now(), now())`,
        [shop, cipher.encrypt(`catalog-${shop}`)],
      );
      await dataSource.query(
        `INSERT INTO "${schema}".shop_sessions (shop, auth_kind, state, access_token, refresh_token, updated_at)
         VALUES ($1, 'installed', 'active', $2, $3, now())`,
        [shop, cipher.encrypt(`shpat-${shop}`), cipher.encrypt(`shprt-${shop}`)],
      );
    }
    shops.push(...made);
    return made;
  };
  const stored = async (shop: string) => {
    const [row] = await dataSource.query(
      `SELECT s.catalog_api_key, t.access_token, t.refresh_token FROM "${schema}".shops s
         JOIN "${schema}".shop_sessions t USING (shop) WHERE shop = $1`,
      [shop],
    );
    return [row.catalog_api_key, row.access_token, row.refresh_token] as string[];
  };

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM "${schema}".shops`);
    await dataSource.query(`DELETE FROM "${schema}".shop_sessions`);
    shops.length = 0;
  });

  it('re-encrypts every secret under the newest key, two replicas at once, and counts what is left', async () => {
    const [oldKey, newKey_] = [newKey(), newKey()];
    const made = await seed(oldKey, 130); // more than a page
    const [one, two] = [replica([newKey_, oldKey]), replica([newKey_, oldKey])];
    const before = await one.census();
    expect(before).toMatchObject({
      currentKey: TokenCipher.fingerprint(newKey_),
      underOldKeys: 390,
      unreadable: 0,
    });
    expect(before.shops.get(made[0] as string)).toEqual({ underOldKeys: 3, unreadable: 0 });

    const [a, b] = await Promise.all([one.reencrypt(), two.reencrypt()]);
    // Each secret replaced once: a value the other replica already replaced is not written again.
    expect(a.reencrypted + b.reencrypted).toBe(390);
    expect(a.secretsUnderOldKeys).toBe(0);
    expect(b.secretsUnderOldKeys).toBe(0);
    const after = new TokenCipher([newKey_]);
    for (const shop of made.slice(0, 5)) {
      expect((await stored(shop)).map((value) => after.decrypt(value))).toEqual([
        `catalog-${shop}`,
        `shpat-${shop}`,
        `shprt-${shop}`,
      ]);
    }
    expect(await one.reencrypt()).toMatchObject({ reencrypted: 0, secretsUnderOldKeys: 0 });
    // The old key can go: nothing names it, the boot goes on.
    const next = replica([newKey_]);
    await expect(next.onApplicationBootstrap()).resolves.toBeUndefined();
    await next.onModuleDestroy();
  });

  it('never overwrites a value that changed since it was read (a renewal, a key set)', async () => {
    const [oldKey, newKey_] = [newKey(), newKey()];
    const [shop] = (await seed(oldKey, 1)) as [string];
    const sessions = new ShopSessionRepository(dataSource.getRepository(ShopSession));
    const [access] = await sessions.secretsNotUnder(TokenCipher.fingerprint(newKey_), '', 10);
    const renewed = new TokenCipher([newKey_]).encrypt('shpat-renewed');
    await dataSource.query(`UPDATE "${schema}".shop_sessions SET access_token = $2 WHERE shop = $1`, [
      shop,
      renewed,
    ]);
    expect(access?.kind).toBe('access token');
    expect(await sessions.replaceSecret(access as NonNullable<typeof access>, 'v1:stale')).toBe(false);
    expect((await stored(shop))[1]).toBe(renewed);
  });

  it('refuses the boot while a secret names a key no longer listed, naming its shops; a key declared lost lets it go on', async () => {
    const [dropped, kept] = [newKey(), newKey()];
    const [gone] = (await seed(dropped, 1)) as [string];
    const [fine] = (await seed(kept, 1)) as [string];
    const droppedId = TokenCipher.fingerprint(dropped);
    const refused = await replica([kept])
      .onApplicationBootstrap()
      .then(
        () => 'booted',
        (error: Error) => error.message,
      );
    expect(refused).toContain(
      `CONNECTOR_ENCRYPTION_KEYS no longer lists key ${droppedId}, which still encrypts 3 stored secrets of 1 shops: ${gone} (catalog API key, access token, refresh token).`,
    );
    expect(refused).toContain(`CONNECTOR_ENCRYPTION_LOST_KEYS=${droppedId}`);
    expect(refused).not.toContain(fine);

    const declared = replica([kept], [droppedId]);
    await expect(declared.onApplicationBootstrap()).resolves.toBeUndefined();
    const census = await declared.census();
    expect(census).toMatchObject({ underOldKeys: 0, unreadable: 3 });
    expect(census.shops.get(gone)).toEqual({ underOldKeys: 0, unreadable: 3 });
    // Nothing is forgotten: the values stay, for a key found again.
    expect(await declared.reencrypt()).toMatchObject({ reencrypted: 0, unreadableSecrets: 3 });
    expect((await stored(gone)).every((value) => value.startsWith(`v1:${droppedId}:`))).toBe(true);
  });
});
