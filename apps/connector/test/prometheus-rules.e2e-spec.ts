import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { testShop } from './support/test-shop.js';

const DIR = join(process.cwd(), 'deploy/prometheus');
const RULES = join(DIR, 'alerts.yml');
/** Series Prometheus makes itself for every scrape target (not the connector's). */
const SCRAPE_SERIES = new Set(['up']);
/** PromQL's words that look like names but are not series. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The series names a PromQL expression reads: label matchers, ranges, grouping lists, strings and function names left out. */
function seriesNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/(?<![\w:.])[a-zA-Z_:][\w:]*\b(?!\s*\()/g)].map((m) => m[0]);
  return [...new Set(names.filter((name) => !KEYWORDS.has(name.toLowerCase())))];
}

/** Every metric a `/metrics` exposition declares, a histogram's `_bucket`, `_sum` and `_count` included. */
function exported(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = match as unknown as [string, string, string];
    names.add(name);
    if (type === 'histogram' || type === 'summary')
      for (const part of ['_bucket', '_sum', '_count']) names.add(`${name}${part}`);
  }
  return names;
}

// deploy/prometheus/alerts.yml (issue 42): every rule well formed (a severity, a summary and a
// description saying what to do), every series it reads one a booted connector exports at
// /metrics, and `promtool check rules` plus its unit tests (alerts.test.yml) when promtool is
// installed (Debian's prometheus package; .ci/run installs it, and under CI it must be there).
describe('the Prometheus alerting rules', () => {
  const rules = (
    parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> }
  ).groups.flatMap((g) => g.rules);
  const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
  const ci = inject('ci');
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    const shop = testShop();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_MEDIA_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('finds the series names of an expression, and only them', () => {
    expect(
      seriesNames(
        'histogram_quantile(0.95, sum by (le) (rate(connector_sync_duration_seconds_bucket{phase="latency",x=~"a|b"}[10m]))) > 300 and on (shop) up == 0',
      ),
    ).toEqual(['connector_sync_duration_seconds_bucket', 'up']);
  });

  it('gives every rule a name, a severity, a summary and a next step', () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    const names = rules.map((r) => r.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(rule.alert, rule.expr).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
    }
  });

  it('reads only series the connector exports at /metrics', async () => {
    const metrics = await (await fetch(`${harness.url}/metrics`)).text();
    const known = exported(metrics);
    expect(known.has('connector_failures_open')).toBe(true);
    const unknown = rules.flatMap((rule) =>
      seriesNames(rule.expr)
        .filter((name) => !known.has(name) && !SCRAPE_SERIES.has(name))
        .map((name) => `${rule.alert}: ${name}`),
    );
    expect(unknown).toEqual([]);
    // The shop states and the alerts' own deliveries among them.
    for (const name of [
      'connector_shop_health',
      'connector_alert_deliveries',
      'connector_catalog_calls_total',
    ])
      expect(known.has(name), name).toBe(true);
  });

  it.runIf(!promtool && !ci)(
    'is not checked by promtool: it is not installed (apt-get install prometheus)',
    () => {
      expect(promtool).toBe(false);
    },
  );

  it.runIf(promtool || ci)('passes promtool check rules, and its unit tests (alerts.test.yml)', () => {
    expect(promtool, 'promtool must be installed under CI (.ci/run installs it)').toBe(true);
    const check = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    const test = spawnSync('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: DIR, encoding: 'utf8' });
    expect(test.status, `${test.stdout}${test.stderr}`).toBe(0);
  });
});
