import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productBody } from '#testing/catalog-sandbox';
import type { DriftReportJobResult } from '../src/drift/drift-report.job.js';
import { DriftReportsRepository } from '../src/drift/store/drift-reports.repository.js';
import { runCli } from '../src/operations/cli/connector-cli.js';
import type { CliOutput } from '../src/operations/cli/context/cli-context.js';
import { FailuresService } from '../src/platform/failures/failures.service.js';
import { JobSchedulers } from '../src/platform/queues/job-schedulers.js';
import { JobName, QueueName } from '../src/platform/queues/queue-names.js';
import { tickMs, turnOffset } from '../src/platform/queues/schedule-spread.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

const DAY_MS = 86_400_000;

// The scheduled drift report: a scheduler of the connector's (daily here, the default), spread
// over the day: it ticks every 24 minutes, and each tick enqueues one job per shop whose turn came
// (its place in the day), which stores the shop's report. A scheduled run soon after skips the
// shop; a shop's job that fails lands in the failures inbox.
describe('scheduled drift report', () => {
  let world: SyncWorld;
  const token = `admin-${'t'.repeat(32)}`;

  /** Runs the command line against this world's connector; its exit code and output. */
  const cli = async (...args: string[]) => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (text = '') => lines.push(text),
      warn: (text) => lines.push(text),
      progress: process.stderr,
    };
    const env = {
      CONNECTOR_SHOPS: world.shop.domain,
      [`CONNECTOR_SHOP_${world.shop.key}_ACCESS_TOKEN`]: world.shop.accessToken,
      [`CONNECTOR_SHOP_${world.shop.key}_WEBHOOK_SECRETS`]: world.shop.webhookSecrets.join(','),
      CONNECTOR_CATALOG_URL: world.sandboxes.catalog.url,
      CONNECTOR_CATALOG_API_KEY: world.account.apiKey,
      CONNECTOR_ADMIN_TOKEN: token,
    };
    const code = await runCli(['--url', world.harness.url, ...args], env, out);
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_DRIFT_INTERVAL_MS: String(DAY_MS), CONNECTOR_ADMIN_TOKEN: token },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('runs once per interval across replicas, skips a recent report, and its failures reach the inbox', async () => {
    const app = world.harness.connector.app;
    const scheduler = app.get(JobSchedulers).all.find((job) => job.name === JobName.DRIFT_REPORT);
    expect(scheduler?.periodMs).toBe(DAY_MS);
    expect(scheduler?.everyMs).toBe(tickMs(DAY_MS));
    const queue = app.get<Queue>(getQueueToken(QueueName.DRIFT_REPORT));
    expect((await queue.getJobScheduler(JobName.DRIFT_REPORT))?.every).toBe(tickMs(DAY_MS));

    // The scheduler's tick at the shop's turn (the job it adds then, by its id): the shop's
    // report is stored without anyone asking.
    const turn =
      Math.floor(Date.now() / DAY_MS) * DAY_MS +
      turnOffset(QueueName.DRIFT_REPORT, world.shop.domain, DAY_MS);
    const tick = (at: number) =>
      queue.add(
        JobName.DRIFT_REPORT,
        {},
        { ...scheduler?.opts(), jobId: `repeat:${JobName.DRIFT_REPORT}:${at}` },
      );
    await tick(turn);
    const reports = app.get(DriftReportsRepository);
    const first = await eventually(
      async () => (await reports.latest(world.shop.domain)) ?? undefined,
      30_000,
    );
    expect(first.shop).toBe(world.shop.domain);

    // The shop's turn again (a tick run again, a scheduler made anew): its report is recent, so skipped.
    await tick(turn + DAY_MS);
    const skipped = await eventually(async () => {
      const done = await queue.getJobs(['completed']);
      return done.some(
        (job) =>
          (job.returnvalue as DriftReportJobResult | null) !== null &&
          'skipped' in (job.returnvalue as DriftReportJobResult) &&
          job.data.shop === world.shop.domain,
      );
    }, 30_000);
    expect(skipped).toBe(true);
    expect((await reports.latest(world.shop.domain))?.id).toBe(first.id);

    // A shop's report job that fails for good is in the failures inbox, with its shop.
    const broken = 'nowhere.myshopify.com';
    await queue.add(JobName.DRIFT_REPORT, { shop: broken }, { attempts: 1 });
    const failure = await eventually(async () => {
      const open = await app.get(FailuresService).openCounts();
      return open.find((f) => f.jobKind === JobName.DRIFT_REPORT && f.shop === broken);
    }, 30_000);
    expect(failure.count).toBe(1);
  });

  it('the command line runs a report, shows it, and repairs only the chosen findings', async () => {
    // The connector's own leftovers (its derived supplierSkus, of a product Shopify does not have):
    // the only orphans a repair deletes.
    const handle = world.shop.domain.replace(/\.myshopify\.com$/, '');
    const straySupplierSku = `${handle}:product:9${Date.now()}`;
    const stray = await world.account.api.post('/v1/products', productBody(straySupplierSku));
    expect(stray.status).toBeLessThan(300);
    const straySku = (stray.body as { data: { skuId: string } }).data.skuId;
    const variant = await world.account.api.post('/v1/variants', {
      parentSupplierSku: straySupplierSku,
      supplierSku: `${handle}:variant:8${Date.now()}`,
      attributes: [],
    });
    expect(variant.status, JSON.stringify(variant.body)).toBeLessThan(300);
    const variantSku = (variant.body as { data: { skuId: string } }).data.skuId;

    const run = await cli('drift', 'run', world.shop.domain, '--json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.text) as {
      id: string;
      findings: Array<{ id: string; kind: string; skuId: string | null; parentSkuId?: string }>;
    };
    const orphan = report.findings.find((f) => f.kind === 'orphan' && f.skuId === straySku);
    const variantOrphan = report.findings.find((f) => f.kind === 'orphan' && f.skuId === variantSku);
    expect(orphan?.parentSkuId).toBeUndefined();
    expect(variantOrphan?.parentSkuId).toBe(straySku);

    const shown = await cli('drift', 'show', report.id);
    expect(shown.code).toBe(0);
    expect(shown.text).toContain(`Drift report ${report.id} of ${world.shop.domain}`);
    expect(shown.text).toContain(`#${orphan?.id}  orphan  record ${straySku}  repair: delete-record`);

    // Nothing without a choice; one choice at a time.
    expect((await cli('drift', 'repair', report.id)).code).toBe(2);
    expect((await cli('drift', 'repair', report.id, '--all', '--kind', 'orphan')).code).toBe(2);
    // The variant orphan alone: the variant record goes, its parent product stays.
    const one = await cli('drift', 'repair', report.id, '--finding', variantOrphan?.id ?? '');
    expect(one.code).toBe(0);
    expect(one.text).toContain(`#${variantOrphan?.id}  orphan  delete-record  deleted`);
    expect((await world.account.api.get(`/v1/variants/${variantSku}`)).status).toBe(404);
    expect(await world.catalogRecord(straySku)).not.toBeNull();
    // Then every orphan of the report: the parent goes, the variant was repaired already.
    const all = await cli('drift', 'repair', report.id, '--kind', 'orphan');
    expect(all.code).toBe(0);
    expect(all.text).toContain(`#${orphan?.id}  orphan  delete-record  deleted`);
    expect(all.text).toContain(`#${variantOrphan?.id}  orphan  delete-record  already-repaired`);
    expect(await world.catalogRecord(straySku)).toBeNull();
    // /metrics counts the reports, the open findings of the latest report, and the repair.
    const metrics = await (await fetch(`${world.harness.url}/metrics`)).text();
    const shop = `shop="${world.shop.domain}"`;
    const reportsKept = Number(metrics.match(new RegExp(`connector_drift_reports\\{${shop}\\} (\\d+)`))?.[1]);
    expect(reportsKept).toBeGreaterThanOrEqual(2);
    expect(metrics).toContain(`connector_drift_repairs{${shop},kind="orphan",outcome="deleted"} 2`);
    expect(metrics).toContain(`connector_drift_findings_open{${shop},kind="orphan"} 0`);
    expect(metrics).toContain(`connector_drift_findings_open{${shop},kind="duplicate"} 0`);
    const none = await cli('drift', 'show', '999999999');
    expect(none.code).toBe(1);
  });
});
