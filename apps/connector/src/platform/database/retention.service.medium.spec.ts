import type { ModuleRef } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { InboxEntry } from '../../intake/inbox-entry.entity.js';
import { InboxRetention } from '../../intake/inbox-retention.service.js';
import type { RetentionSettings } from '../config/settings.js';
import { Failure } from '../failures/failure.entity.js';
import { FailuresRepository } from '../failures/failures.repository.js';
import { FailuresService } from '../failures/failures.service.js';
import { ReplayRegistry } from '../failures/replay-registry.service.js';
import { ALL_QUEUES, type QueueName } from '../queues/queue-names.js';
import { Observations } from '../reporting/observations.service.js';
import { RetentionRegistry } from '../reporting/retention-registry.service.js';
import { Retention } from './retention.service.js';

// Real PostgreSQL, the connector's own migrations, in a schema of this file's own.
const database = mediumDatabase('retention', [InboxEntry, Failure]);
const { schema } = database;
const DAY = 86_400_000;
const now = Date.UTC(2027, 10, 23, 10);
const clock = new ManualClock(now);
let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

const ago = (days: number) => new Date(now - days * DAY);

async function delivery(
  shop: string,
  webhookId: string,
  state: string,
  receivedDaysAgo: number,
): Promise<void> {
  await dataSource.query(
    `INSERT INTO "${schema}".inbox (shop, webhook_id, topic, body_bytes, state, received_at)
     VALUES ($1, $2, 'products/update', 0, $3, $4)`,
    [shop, webhookId, state, ago(receivedDaysAgo)],
  );
}

async function failure(
  shop: string,
  subject: string,
  state: string,
  resolvedDaysAgo: number | null,
): Promise<void> {
  await dataSource.query(
    `INSERT INTO "${schema}".failures (shop, job_kind, subject_key, payload, error_code, error_message, retryable,
       attempts, first_failed_at, last_failed_at, state, resolved_at)
     VALUES ($1, 'sync-product', $2, '{}', 'x', 'x', false, 1, $3, $3, $4, $5)`,
    [shop, subject, ago(400), state, resolvedDaysAgo === null ? null : ago(resolvedDaysAgo)],
  );
}

describe('Retention against PostgreSQL', () => {
  it('prunes old finished deliveries, old resolved failures, succeeded jobs and registered tables; keeps the rest', async () => {
    const shop = `${uniqueId('shop')}.myshopify.com`;
    await delivery(shop, 'old-done', 'done', 31);
    await delivery(shop, 'old-rejected', 'rejected', 45);
    await delivery(shop, 'old-pending', 'received', 60); // never processed: the sweeper's, kept
    await delivery(shop, 'recent-done', 'done', 29);
    await failure(shop, '1', 'dismissed', 91);
    await failure(shop, '2', 'replayed', 120);
    await failure(shop, '3', 'open', null); // open: kept whatever its age
    await failure(shop, '4', 'dismissed', 10);

    const cleaned: Array<{ queue: string; grace: number; type: string }> = [];
    const queues = new Map(
      ALL_QUEUES.map((name) => [
        name,
        {
          clean: async (grace: number, _limit: number, type: string) => {
            cleaned.push({ queue: name, grace, type });
            return name === 'sync-product' ? ['a', 'b'] : [];
          },
        },
      ]),
    );
    const moduleRef = {
      get: (token: string) => queues.get(token.replace(/^BullQueue_/, '') as QueueName),
    } as unknown as ModuleRef;
    const registry = new RetentionRegistry();
    const pushed: Date[] = [];
    registry.register({
      name: 'push_history',
      ageMs: 14 * DAY,
      prune: async (before) => {
        pushed.push(before);
        return 3;
      },
    });
    const settings = {
      intervalMs: 60_000,
      inboxMs: 30 * DAY,
      jobsMs: 7 * DAY,
      failuresMs: 90 * DAY,
    } as RetentionSettings;
    const failuresService = new FailuresService(
      new FailuresRepository(dataSource.getRepository(Failure)),
      new ReplayRegistry(),
      clock,
      new Observations(),
    );
    const retention = new Retention(registry, failuresService, clock, moduleRef, settings);
    // The inbox registers its own table (intake), as every feature does.
    new InboxRetention(
      registry,
      new InboxRepository(
        dataSource.getRepository(InboxEntry),
        new FailuresRepository(dataSource.getRepository(Failure)),
      ),
      settings,
    ).onModuleInit();

    const result = await retention.run();

    expect(result).toMatchObject({ inbox: 2, failures: 2, push_history: 3, 'jobs:sync-product': 2 });
    const left = await dataSource.query(
      `SELECT webhook_id FROM "${schema}".inbox WHERE shop = $1 ORDER BY webhook_id`,
      [shop],
    );
    expect(left.map((row: { webhook_id: string }) => row.webhook_id)).toEqual(['old-pending', 'recent-done']);
    const failures = await dataSource.query(
      `SELECT subject_key FROM "${schema}".failures WHERE shop = $1 ORDER BY subject_key`,
      [shop],
    );
    expect(failures.map((row: { subject_key: string }) => row.subject_key)).toEqual(['3', '4']);
    expect(pushed).toEqual([ago(14)]);
    expect(cleaned).toEqual(ALL_QUEUES.map((queue) => ({ queue, grace: 7 * DAY, type: 'completed' })));

    // A second pass finds nothing more.
    expect(await retention.run()).toMatchObject({ inbox: 0, failures: 0 });
  });
});
