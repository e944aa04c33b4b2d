import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/operations/cli/connector-cli.js';
import { type Answer, call, sample } from './support/admin-client.js';
import { signedInPage, uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { startBrowser } from './support/browser.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { MovableClock } from './support/movable-clock.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { testShop } from './support/test-shop.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

const DEMO_MAPPING = join(process.cwd(), 'apps/connector/mappings/demo.yaml');
const MINUTE = 60_000;
const DEBOUNCE_MS = 2 * MINUTE;
const ATTEMPTS = 4;

/** One request the receiver took, and the status it answered. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A notification receiver on a random local port: it records every request, and answers the
 * paths under a prefix with the statuses queued for it (then 200), so a test plays an outage and
 * its end.
 */
class Receiver {
  readonly received: Received[] = [];
  private readonly outages = new Map<string, number[]>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const queued = [...this.outages].find(([prefix]) => path.startsWith(prefix))?.[1];
        const status = queued?.shift() ?? 200;
        this.received.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          status,
        });
        res.statusCode = status;
        res.end(status === 200 ? 'ok' : 'receiver unavailable');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next requests under `prefix` are answered with `statuses`, in order. */
  fail(prefix: string, statuses: number[]): void {
    this.outages.set(prefix, [...statuses]);
  }

  on(prefix: string): Received[] {
    return this.received.filter((r) => r.path.startsWith(prefix));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Checks a webhook request the way docs/alerts.md tells a receiver to. */
function verified(request: Received, secret: string): boolean {
  const timestamp = String(request.headers['x-connector-timestamp'] ?? '');
  const given = String(request.headers['x-connector-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

interface Delivery {
  id: string;
  target: string;
  kind: string;
  shop: string;
  from: string;
  to: string;
  cause: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
}

// Alerts end to end (issue 42): a running connector against both sandboxes, its clock moved by
// the test, and a real receiver on a random port. A shop's state change (an operator's pause,
// then its lifting) reaches a signed webhook and a Slack target once per change, after the
// debounce; a flap shorter than the debounce sends nothing; a receiver answering 503 gets the
// alert again once it is back, and one down past the attempts finds it in the failures inbox,
// from where a replay delivers it.
describe('alerts: shop state changes reach the operators’ receivers', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let dir: string;
  let secret: string;
  const receiver = new Receiver();
  const clock = new MovableClock();
  const shop = testShop();
  const token = `alerts-${randomBytes(12).toString('hex')}`;
  const admin = <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Answer<T>> => call<T>(harness.url, method, path, token, body);
  /** The shop's row as the alerts' last look left it. */
  const row = async () => {
    const { rows } = await harness.db.query<{
      seen_state: string;
      notified_state: string;
      pending_state: string | null;
      checked_at: Date;
    }>(
      `SELECT seen_state, notified_state, pending_state, checked_at FROM "${harness.schema}".alert_shop_states WHERE shop = $1`,
      [shop.domain],
    );
    return rows[0];
  };
  /** Resolves once the alerts looked at the shop after now (by the connector's clock) and found `probe` true. */
  const looked = (probe: (r: NonNullable<Awaited<ReturnType<typeof row>>>) => boolean) => {
    const after = clock.now();
    return eventually(async () => {
      const r = await row();
      return r !== undefined && r.checked_at.getTime() > after && probe(r) && r;
    }, 30_000);
  };
  const deliveries = async () =>
    (await admin<{ deliveries: Delivery[] }>('GET', `/admin/alert-deliveries?shop=${shop.domain}`)).body
      .deliveries;
  const overviewOf = async () =>
    (
      await admin<{ shops: Array<{ shop: string; state: string; reasons: string[] }> }>(
        'GET',
        '/admin/overview',
      )
    ).body.shops.find((s) => s.shop === shop.domain);

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    await receiver.start();
    dir = await mkdtemp(join(tmpdir(), 'connector-alerts-'));
    const mapping = join(dir, 'demo.yaml');
    await writeFile(mapping, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      clock,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: String(30 * MINUTE),
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`]: mapping,
        CONNECTOR_ALERT_CHECK_INTERVAL_MS: '150',
        CONNECTOR_ALERT_DEBOUNCE_MS: String(DEBOUNCE_MS),
        CONNECTOR_ALERT_ATTEMPTS: String(ATTEMPTS),
        CONNECTOR_ALERT_BACKOFF_MS: '50',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
    await receiver.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('registers a signed webhook and a Slack target; the secret is shown once, the URL never again', async () => {
    const hook = await admin<{ id: string; secret?: string; url: string; signed: boolean }>(
      'POST',
      '/admin/alert-targets',
      {
        kind: 'webhook',
        url: `${receiver.url}/hook/${randomBytes(4).toString('hex')}`,
        label: 'on-call webhook',
        shop: shop.domain,
      },
    );
    expect(hook.status).toBe(201);
    expect(hook.body).toMatchObject({
      kind: 'webhook',
      shop: shop.domain,
      signed: true,
      url: `${receiver.url}/…`,
    });
    secret = hook.body.secret as string;
    expect(secret).toMatch(/^[\w-]{40,}$/);
    const slack = await admin('POST', '/admin/alert-targets', {
      kind: 'slack',
      url: `${receiver.url}/slack`,
      label: 'team channel',
    });
    expect(slack.status).toBe(201);
    expect(slack.body).toMatchObject({ kind: 'slack', shop: null, signed: false });
    expect(slack.body).not.toHaveProperty('secret');

    const list = await admin('GET', '/admin/alert-targets');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain('/hook/');
    expect(list.text).not.toContain('/slack');
    expect((list.body.targets as unknown[]).length).toBe(2);

    for (const [body, parameter] of [
      [{ kind: 'webhook', url: 'http://example.com/hook' }, 'url'],
      [{ kind: 'slack', url: `${receiver.url}/slack`, secret: 'a-secret-of-enough-length' }, 'secret'],
      [{ kind: 'webhook', url: `${receiver.url}/x`, shop: 'nobody.myshopify.com' }, 'shop'],
      [{ kind: 'email', url: `${receiver.url}/x` }, 'kind'],
    ] as const) {
      const refused = await admin<{ error: { code: string; details: { parameter: string } } }>(
        'POST',
        '/admin/alert-targets',
        body,
      );
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.details.parameter).toBe(parameter);
    }
  });

  it('sends nothing for a flap shorter than the debounce', async () => {
    await eventually(async () => (await overviewOf())?.state === 'healthy', 30_000);
    await looked((r) => r.seen_state === 'healthy' && r.notified_state === 'healthy');
    expect((await admin('POST', `/admin/sync/pause?shop=${shop.domain}&reason=flap`)).status).toBe(200);
    await looked((r) => r.pending_state !== null);
    expect((await admin('POST', `/admin/sync/resume?shop=${shop.domain}`)).status).toBe(200);
    await looked((r) => r.seen_state === 'healthy' && r.pending_state === null);
    clock.offsetMs += DEBOUNCE_MS + MINUTE;
    // Two looks after the debounce has passed: still nothing to send.
    await looked((r) => r.seen_state === 'healthy');
    await looked((r) => r.notified_state === 'healthy');
    expect(receiver.received).toEqual([]);
    expect(await deliveries()).toEqual([]);
  });

  it('sends a change once it held, signed, and again after the receiver’s outage', async () => {
    expect((await admin('POST', `/admin/sync/pause?shop=${shop.domain}&reason=maintenance`)).status).toBe(
      200,
    );
    const paused = await eventually(async () => {
      const s = await overviewOf();
      return s !== undefined && s.state !== 'healthy' && s;
    });
    await looked((r) => r.pending_state === paused.state);
    // The webhook's receiver is down: it answers 503 twice, then takes the alert.
    receiver.fail('/hook/', [503, 503]);
    const hooks = () => receiver.on('/hook/');
    clock.offsetMs += DEBOUNCE_MS + 1_000;
    const delivered = await eventually(async () => {
      const list = await deliveries();
      return list.length === 2 && list.every((d) => d.state === 'delivered') && list;
    }, 30_000);
    const webhook = delivered.find((d) => d.kind === 'webhook') as Delivery;
    const slack = delivered.find((d) => d.kind === 'slack') as Delivery;
    expect(webhook).toMatchObject({
      target: 'on-call webhook',
      from: 'healthy',
      to: paused.state,
      cause: paused.reasons[0],
      attempts: 3,
      lastStatus: 200,
    });
    expect(slack).toMatchObject({ target: 'team channel', to: paused.state, attempts: 1, lastStatus: 200 });

    // The webhook: two 503s, then the 200; the same delivery each time, each signed.
    expect(hooks().map((r) => r.status)).toEqual([503, 503, 200]);
    for (const request of hooks()) {
      expect(verified(request, secret)).toBe(true);
      expect(request.headers['x-connector-delivery']).toBe(webhook.id);
      expect(request.headers['x-connector-event']).toBe('shop.state_changed');
      expect(Math.abs(Number(request.headers['x-connector-timestamp']) - clock.now() / 1000)).toBeLessThan(
        300,
      );
      expect(verified({ ...request, body: request.body.replace('maintenance', 'maintenancE') }, secret)).toBe(
        false,
      );
    }
    const body = JSON.parse(hooks()[2]?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'shop.state_changed',
      id: webhook.id,
      shop: shop.domain,
      from: 'healthy',
      to: paused.state,
      cause: paused.reasons[0],
      reasons: paused.reasons,
      link: `${harness.url}/admin/ui`,
    });
    expect(paused.reasons[0]).toContain('maintenance');

    // Slack: {"text"} with the shop, the new state, the cause and a link.
    const slackRequests = receiver.on('/slack');
    expect(slackRequests.length).toBe(1);
    const text = (JSON.parse(slackRequests[0]?.body ?? '{}') as { text: string }).text;
    expect(Object.keys(JSON.parse(slackRequests[0]?.body ?? '{}'))).toEqual(['text']);
    expect(text).toContain(`*${shop.domain}* is *${paused.state}* (was healthy)`);
    expect(text).toContain(paused.reasons[0]);
    expect(text).toContain(`<${harness.url}/admin/ui|`);

    // The metrics say it too: the shop's state, the deliveries by state.
    const metrics = (await call(harness.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'connector_shop_health', { shop: shop.domain, state: paused.state })).toBe(1);
    expect(sample(metrics, 'connector_shop_health', { shop: shop.domain, state: 'healthy' })).toBe(0);
    expect(sample(metrics, 'connector_alert_deliveries', { state: 'delivered' })).toBe(2);

    // Once per change: more looks, later, send nothing more.
    clock.offsetMs += DEBOUNCE_MS;
    await looked((r) => r.notified_state === paused.state);
    await looked((r) => r.notified_state === paused.state);
    expect(hooks().length).toBe(3);
    expect(receiver.on('/slack').length).toBe(1);
  });

  it('sends the way back; a receiver down past the attempts finds it in the failures inbox, replayed once back', async () => {
    const hooks = () => receiver.on('/hook/');
    const before = hooks().length;
    receiver.fail('/hook/', Array(ATTEMPTS).fill(503));
    expect((await admin('POST', `/admin/sync/resume?shop=${shop.domain}`)).status).toBe(200);
    await looked((r) => r.seen_state === 'healthy' && r.pending_state === 'healthy');
    clock.offsetMs += DEBOUNCE_MS + 1_000;
    const failed = await eventually(async () => {
      const back = (await deliveries()).find((d) => d.kind === 'webhook' && d.to === 'healthy');
      return back?.state === 'failed' && back;
    }, 30_000);
    expect(failed).toMatchObject({ attempts: ATTEMPTS, lastStatus: 503, from: expect.any(String) });
    expect(
      hooks()
        .slice(before)
        .map((r) => r.status),
    ).toEqual(Array(ATTEMPTS).fill(503));
    const inbox = await admin<{
      items: Array<{ id: string; subjectKey: string; state: string; error: { code: string } }>;
    }>('GET', '/admin/failures?jobKind=alert-delivery&state=open');
    const failure = inbox.body.items.find((f) => f.subjectKey === `alert-delivery:${failed.id}`);
    expect(failure?.error.code).toBe('alert_receiver_unavailable');

    // The receiver is back: the replay delivers it.
    expect((await admin('POST', `/admin/failures/${failure?.id}/replay`)).status).toBe(200);
    const replayed = await eventually(async () => {
      const back = (await deliveries()).find((d) => d.id === failed.id);
      return back?.state === 'delivered' && back;
    }, 30_000);
    expect(replayed).toMatchObject({ attempts: ATTEMPTS + 1, lastStatus: 200, to: 'healthy' });
    const last = hooks().at(-1) as Received;
    expect(last.status).toBe(200);
    expect(verified(last, secret)).toBe(true);
    expect(JSON.parse(last.body)).toMatchObject({ shop: shop.domain, to: 'healthy', id: failed.id });
    // Slack took the way back at once.
    expect(receiver.on('/slack').map((r) => (JSON.parse(r.body) as { text: string }).text)).toEqual([
      expect.stringContaining('is *'),
      expect.stringMatching(new RegExp(`\\*${shop.domain.replaceAll('.', '\\.')}\\* is \\*healthy\\*`)),
    ]);
  });

  it('lists the targets and the recent notifications on /admin/ui/alerts, linked from the navigation', async () => {
    const cookie = await uiSessionCookie(harness.url, token);
    const { status, html } = await uiPage(harness.url, cookie, '/admin/ui/alerts');
    expect(status).toBe(200);
    expect(html).toContain('<a href="/admin/ui/alerts" aria-current="page">Alerts</a>');
    expect(html).toContain('on-call webhook');
    expect(html).toContain('team channel');
    expect(html).not.toContain(secret);
    expect(html).not.toContain('/hook/');
    expect(html).toMatch(/<td>delivered<\/td>/);
    expect(html).toContain(shop.domain);
    expect((await uiPage(harness.url, cookie, '/admin/ui')).html).toContain('href="/admin/ui/alerts"');

    // With targets, shops and notifications on it: screenshots at 1280 and 390 px, no sideways
    // page scroll, no serious accessibility violation.
    const browser = await startBrowser({ bypassCSP: true });
    try {
      for (const width of [1280, 390]) {
        const page = await signedInPage(browser, harness.url, token, width);
        expect((await page.goto(`${harness.url}/admin/ui/alerts`))?.status()).toBe(200);
        expect(await screenshotAt(page, 'alerts-filled', width)).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page)).toEqual([]);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });

  it('lists the targets and notifications with connector alerts list', async () => {
    const lines: string[] = [];
    const out = {
      line: (t = '') => lines.push(t),
      warn: (t: string) => lines.push(t),
      progress: process.stderr,
    };
    const code = await runCli(
      ['--url', harness.url, 'alerts', 'list', '--deliveries', '--shop', shop.domain],
      { CONNECTOR_ADMIN_TOKEN: token },
      out,
    );
    expect({ code, text: lines.join('\n') }).toMatchObject({ code: 0 });
    const text = lines.join('\n');
    expect(text).toMatch(
      new RegExp(
        `#\\d+  on-call webhook  \\(webhook, signed\\)  ${shop.domain.replaceAll('.', '\\.')}  ${receiver.url.replaceAll('.', '\\.')}/…`,
      ),
    );
    expect(text).toContain(
      `${shop.domain}  failing -> healthy  to on-call webhook: delivered after ${ATTEMPTS + 1} attempt(s) (answered 200)`,
    );
    expect(text).not.toContain(secret);
  });

  it('removes a target; its deliveries stay listed under its label', async () => {
    const { targets } = (
      await admin<{ targets: Array<{ id: string; label: string }> }>('GET', '/admin/alert-targets')
    ).body;
    const hook = targets.find((t) => t.label === 'on-call webhook') as { id: string };
    expect((await admin('DELETE', `/admin/alert-targets/${hook.id}`)).status).toBe(204);
    expect((await admin('DELETE', `/admin/alert-targets/${hook.id}`)).status).toBe(404);
    const left = (await admin<{ targets: unknown[] }>('GET', '/admin/alert-targets')).body.targets;
    expect(left.length).toBe(1);
    expect((await deliveries()).filter((d) => d.target === 'on-call webhook').length).toBe(2);
  });
});
