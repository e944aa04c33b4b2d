import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Answer, call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { testShop } from './support/test-shop.js';

const DEMO_MAPPING = join(process.cwd(), 'apps/connector/mappings/demo.yaml');

const newKey = () => randomBytes(32).toString('base64');
/** The fingerprint a stored value names its key by (`TokenCipher`). */
const keyId = (key: string) =>
  createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 8);

/** One request the receiver took. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Delivery {
  id: string;
  target: string;
  state: string;
  cause: string;
}

/** Checks a webhook request the way docs/alerts.md tells a receiver to. */
function verified(request: Received, secret: string): boolean {
  const timestamp = String(request.headers['x-connector-timestamp'] ?? '');
  const given = String(request.headers['x-connector-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

// Rotating CONNECTOR_ENCRYPTION_KEYS with an alert target registered: its URL and signing secret
// (encrypted with the same cipher as the shops' secrets) are re-encrypted under the newest key
// with the shops' secrets, counted with them (GET /admin/shops, POST /admin/shops/reencrypt), so
// the old key can go and the target is still delivered to; and a boot without a key that still
// encrypts a target is refused, naming the target as an alert target.
describe('rotating the encryption key with an alert target', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness | undefined;
  let db: pg.Pool;
  let dir: string;
  let mapping: string;
  let catalogApiKey: string;
  let server: Server;
  let receiverUrl = '';
  let targetId = '';
  let secret = '';
  const received: Received[] = [];
  const shop = testShop();
  const token = `alert-keys-${randomBytes(12).toString('hex')}`;
  const schema = `c_${randomBytes(6).toString('hex')}`;
  const hookPath = `/hook/${randomBytes(4).toString('hex')}`;
  const [a, b, c] = [newKey(), newKey(), newKey()];

  const start = (keys: string[]) =>
    startConnector({
      shops: [shop],
      schema,
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_ENCRYPTION_KEYS: keys.join(','),
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`]: mapping,
        CONNECTOR_ALERT_CHECK_INTERVAL_MS: '150',
        CONNECTOR_ALERT_DEBOUNCE_MS: '0',
        CONNECTOR_ALERT_BACKOFF_MS: '50',
      },
    });
  const restart = async (keys: string[]) => {
    await harness?.close();
    harness = undefined;
    harness = await start(keys);
    return harness;
  };
  const admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    if (harness === undefined) throw new Error('no connector running');
    return call<T>(harness.url, method, path, token, body) as Promise<Answer<T>>;
  };
  /** The key id each stored value of the target names: its URL's, its secret's. */
  const targetKeyIds = async () => {
    const { rows } = await db.query<{ url: string; secret: string }>(
      `SELECT url, secret FROM "${schema}".alert_targets WHERE id = $1`,
      [targetId],
    );
    return [rows[0]?.url, rows[0]?.secret].map((value) => value?.split(':')[1]);
  };

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    catalogApiKey = (await sandboxes.account()).apiKey;
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    dir = await mkdtemp(join(tmpdir(), 'connector-alert-keys-'));
    mapping = join(dir, 'demo.yaml');
    await writeFile(mapping, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await restart([a]);
  });
  afterAll(async () => {
    await harness?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await sandboxes?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('re-encrypts the target under the new key; with the old key dropped, its alerts are still delivered, signed', async () => {
    const added = await admin<{ id: string; secret: string }>('POST', '/admin/alert-targets', {
      kind: 'webhook',
      url: `${receiverUrl}${hookPath}`,
      label: 'rotated webhook',
      shop: shop.domain,
    });
    expect(added.status, added.text).toBe(201);
    targetId = added.body.id;
    secret = added.body.secret;
    expect(await targetKeyIds()).toEqual([keyId(a), keyId(a)]);

    // The new key first, the old one after it: the boot's pass moves the target's values too.
    await restart([b, a]);
    const done = await eventually(async () => {
      const { encryption } = (
        await admin<{ encryption: { secretsUnderOldKeys: number } }>('GET', '/admin/shops')
      ).body;
      return encryption.secretsUnderOldKeys === 0 && (await targetKeyIds()).every((k) => k === keyId(b));
    });
    expect(done).toBe(true);
    expect(await targetKeyIds()).toEqual([keyId(b), keyId(b)]);
    // The boot's pass may still be counting what it left: a pass asked meanwhile answers with it
    // (one at a time per process); once that has answered, a pass of its own moves nothing.
    const first = await admin('POST', '/admin/shops/reencrypt');
    expect(first.body).toMatchObject({ currentKey: keyId(b), secretsUnderOldKeys: 0 });
    const again = await admin('POST', '/admin/shops/reencrypt');
    expect(again.body).toMatchObject({ currentKey: keyId(b), reencrypted: 0, secretsUnderOldKeys: 0 });

    // The old key dropped: the target reads fine, and a change of the shop's state reaches it.
    await restart([b]);
    const targets = await admin<{ targets: Array<{ id: string; problem: string | null }> }>(
      'GET',
      '/admin/alert-targets',
    );
    expect(targets.body.targets.find((t) => t.id === targetId)).toMatchObject({ problem: null });
    const reason = `rotation-${randomBytes(4).toString('hex')}`;
    expect((await admin('POST', `/admin/sync/pause?shop=${shop.domain}&reason=${reason}`)).status).toBe(200);
    const delivery = await eventually(async () => {
      const { deliveries } = (
        await admin<{ deliveries: Delivery[] }>('GET', `/admin/alert-deliveries?shop=${shop.domain}`)
      ).body;
      return deliveries.find((d) => d.cause.includes(reason) && d.state === 'delivered');
    }, 30_000);
    expect(delivery.target).toBe('rotated webhook');
    const request = received.find(
      (r) => r.path === hookPath && r.headers['x-connector-delivery'] === delivery.id,
    );
    expect(request).toBeDefined();
    expect(verified(request as Received, secret)).toBe(true);
  });

  it('refuses to boot without the key that encrypts the target, naming it as an alert target', async () => {
    await harness?.close();
    harness = undefined;
    const refused = await start([c]).then(
      async (booted) => {
        await booted.close();
        return 'booted';
      },
      (error: Error) => error.message,
    );
    expect(refused).toContain(`no longer lists key ${keyId(b)}`);
    expect(refused).toContain(`alert target ${targetId} (URL, signing secret)`);
    expect(refused).not.toContain(`${shop.domain} (`);
    expect(await targetKeyIds()).toEqual([keyId(b), keyId(b)]);
  });
});
