import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  CatalogClient,
  type CatalogClientOptions,
  InProcessRateLimiter,
  type Priority,
  type RateLimiter,
} from '../src/index.js';
import {
  type CatalogSandboxHarness,
  drive,
  portalFor,
  recorder,
  startCatalogSandbox,
} from './sandbox-support.js';

/** A third-party limiter that knows nothing of abort signals: only the re-check after the grant helps. */
class SignalBlindLimiter implements RateLimiter {
  readonly inner: InProcessRateLimiter;
  constructor(inner: InProcessRateLimiter) {
    this.inner = inner;
  }
  acquire(priority?: Priority): Promise<void> {
    return this.inner.acquire(priority);
  }
  pause(ms: number): Promise<void> {
    return this.inner.pause(ms);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

// Issue 11, item 1: calls queued in the limiter when the breaker opens must fail with
// `circuit_open`, unsent and without spending budget. Counted in the sandbox's request log.
describe('CatalogClient: the breaker is asked again after the rate limiter', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  async function storm(options: Partial<CatalogClientOptions> = {}) {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const rec = recorder();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      metrics: rec.metrics,
      random: () => 0.5,
      ...options,
    });
    let openedAt: number | null = null;
    client.breaker.onStateChange(({ to }) => {
      if (to === 'open') openedAt ??= clock.now();
    });
    await portal.setFaults({ error500: {} });
    // 60 calls at once against a catalog answering only 500: all but the first wait in the limiter.
    const errors = await drive(
      clock,
      Promise.all(
        Array.from({ length: 60 }, () =>
          client.getTaxonomy().then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      ),
    );
    const log = await portal.requests();
    return { account, portal, rec, client, errors, log, openedAt: () => openedAt };
  }

  const codes = (errors: unknown[]) =>
    errors.reduce<Record<string, number>>((n, e) => {
      const code = (e as { code: string }).code;
      n[code] = (n[code] ?? 0) + 1;
      return n;
    }, {});

  it('fails queued calls with circuit_open, unsent, once the breaker opens (default limiter)', async () => {
    const { portal, rec, client, errors, log, openedAt } = await storm();
    expect(client.breaker.state).toBe('open');
    // Only the 5 failures that opened the breaker reached the catalog (the issue saw 58 of 60).
    expect(log).toHaveLength(5);
    expect(log.every((r) => r.status === 500)).toBe(true);
    expect(log.every((r) => r.time <= (openedAt() ?? 0))).toBe(true);
    expect(rec.of('call')).toHaveLength(5);
    const byCode = codes(errors);
    expect(byCode.circuit_open).toBeGreaterThanOrEqual(55);
    expect((byCode.circuit_open ?? 0) + (byCode.internal_error ?? 0)).toBe(60);
    expect(rec.of('rejected')).toHaveLength(byCode.circuit_open ?? 0);

    // No budget spent on the refused calls: after a reset, the next call is granted at once
    // (55 spent slots would have pushed it about 14 s into the future at 4 per second).
    await portal.clearFaults();
    await portal.clearRequests();
    client.breaker.reset();
    const before = clock.now();
    await drive(clock, client.getTaxonomy());
    const [next] = await portal.requests();
    expect(next?.status).toBe(200);
    expect((next?.time ?? Number.POSITIVE_INFINITY) - before).toBeLessThanOrEqual(250);
    await client.close();
  });

  it('also with a limiter that ignores abort signals: refused after the grant, never sent', async () => {
    const inner = new InProcessRateLimiter({ clock, ratePerSecond: 20, burst: 1 });
    const { client, errors, log } = await storm({ limiter: new SignalBlindLimiter(inner) });
    expect(client.breaker.state).toBe('open');
    expect(log).toHaveLength(5);
    const byCode = codes(errors);
    expect((byCode.circuit_open ?? 0) + (byCode.internal_error ?? 0)).toBe(60);
    expect(byCode.circuit_open).toBeGreaterThanOrEqual(55);
    expect(inner.waiting).toBe(0);
    await inner.close();
  });

  it('the half-open probe is still admitted after its wait; other queued calls are not', async () => {
    const { portal, client } = await storm({ breaker: { cooldownMs: 10_000 } });
    await portal.clearFaults();
    await portal.clearRequests();
    await clock.advance(10_000);
    // Five calls at once: the first is the probe; the others fail fast while it is in flight.
    const results = await drive(
      clock,
      Promise.all(
        Array.from({ length: 5 }, () =>
          client.getTaxonomy().then(
            () => 'ok',
            (e: unknown) => e,
          ),
        ),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(client.breaker.state).toBe('closed');
    expect(await portal.requests()).toHaveLength(1);
    await client.close();
  });
});
