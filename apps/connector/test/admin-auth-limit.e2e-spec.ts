import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { MovableClock } from './support/movable-clock.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { testShop } from './support/test-shop.js';

type LogLine = { level: string; msg: string; client?: string; attempt?: string; path?: string };

// Failed authentications are limited per client address (CONNECTOR_AUTH_FAILURE_LIMIT, 10 within
// CONNECTOR_AUTH_FAILURE_WINDOW_MS, 60 s, the defaults here): then 429 with Retry-After, the right
// token included, until the window has moved on (the connector's clock, moved by the test).
// Behind a proxy of ours (here: loopback) the client is the address X-Forwarded-For names.
describe('failed authentications, limited per client address', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let admin: string;
  const clock = new MovableClock();
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const wrong = `wrong-${randomBytes(16).toString('hex')}`;
  const raw: string[] = [];
  const logLines = () =>
    raw
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    const shop = testShop();
    await sandboxes.addShop(shop);
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      clock,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_ADMIN_PORT: '0' },
      logger: ['warn', 'error'],
      logDestination: { write: (line: string) => void raw.push(line) },
    });
    admin = harness.connector.adminUrl as string;
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const bearer = (given: string, from?: string) =>
    fetch(`${admin}/admin/failures`, {
      headers: { Authorization: `Bearer ${given}`, ...(from ? { 'X-Forwarded-For': from } : {}) },
    });
  const signIn = (given: string, from: string) =>
    fetch(`${admin}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: given }),
      headers: { 'X-Forwarded-For': from },
      redirect: 'manual',
    });

  it('answers the 11th wrong bearer token within the window 429 with Retry-After, then lets the address in again', async () => {
    const attacker = '203.0.113.10';
    for (let i = 0; i < 10; i += 1) expect((await bearer(wrong, attacker)).status).toBe(401);
    const limited = await bearer(wrong, attacker);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({
      error: { code: 'too_many_attempts', details: { retryAfterS: retryAfter } },
    });
    // The right token is refused too while limited: a guess cannot be told from a refusal.
    expect((await bearer(token, attacker)).status).toBe(429);
    // Another address, and this machine itself, are not limited; their success clears nothing.
    expect((await bearer(token, '203.0.113.11')).status).toBe(200);
    expect((await bearer(token)).status).toBe(200);
    expect((await bearer(token, attacker)).status).toBe(429);

    clock.offsetMs += 60_000;
    expect((await bearer(token, attacker)).status).toBe(200);

    const lines = logLines().filter((line) => line.client === attacker);
    expect(lines.filter((line) => line.msg.startsWith('Admin authentication failed (bearer)'))).toHaveLength(
      10,
    );
    expect(lines.filter((line) => line.msg.startsWith('Admin authentication limited'))).toHaveLength(1);
    expect(lines.every((line) => line.level === 'warn' && line.path === '/admin/failures')).toBe(true);
    expect(raw.join('')).not.toContain(wrong);
    expect(raw.join('')).not.toContain(token);
  });

  it('answers the 11th wrong sign-in within the window with the sign-in page, 429 and Retry-After', async () => {
    const attacker = '203.0.113.20';
    for (let i = 0; i < 10; i += 1) {
      const refused = await signIn(wrong, attacker);
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain('That is not the admin token.');
    }
    for (const given of [wrong, token]) {
      const limited = await signIn(given, attacker);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('set-cookie')).toBeNull();
      expect(limited.headers.get('content-type')).toContain('text/html');
      const page = await limited.text();
      expect(page).toMatch(/Too many failed attempts from your address: try again in \d+ s\./);
      expect(page).toContain('name="token"');
    }
    expect((await signIn(token, '203.0.113.21')).status).toBe(303);

    clock.offsetMs += 60_000;
    const allowed = await signIn(token, attacker);
    expect(allowed.status).toBe(303);
    expect(allowed.headers.get('set-cookie')).toContain('connector_admin_session=');
    expect(
      logLines().filter((line) => line.client === attacker && line.attempt === 'sign-in').length,
    ).toBeGreaterThanOrEqual(11);
  });
});
