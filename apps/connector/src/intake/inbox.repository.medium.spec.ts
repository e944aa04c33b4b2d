import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import { Failure } from '../platform/failures/failure.entity.js';
import { FailuresRepository } from '../platform/failures/failures.repository.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxEntry } from './inbox-entry.entity.js';
import type { VerifiedDelivery } from './verified-delivery.js';

// The inbox's INSERTs against real PostgreSQL (the connector's migrations, a schema of its own).
const database = mediumDatabase('inbox', [InboxEntry, Failure]);
let dataSource: DataSource;
let repository: InboxRepository;

beforeAll(async () => {
  dataSource = await database.open();
  repository = new InboxRepository(
    dataSource.getRepository(InboxEntry),
    new FailuresRepository(dataSource.getRepository(Failure)),
  );
});

afterAll(() => database.close());

function delivery(
  shop: string,
  webhookId: string,
  overrides: Partial<VerifiedDelivery> = {},
): VerifiedDelivery {
  return {
    shop,
    webhookId,
    eventId: 'event-1',
    triggeredAt: '2026-11-23T10:00:00.123456789Z',
    topic: 'products/update',
    apiVersion: '2026-07',
    productId: '9007199254740993',
    payloadUpdatedAt: new Date('2026-11-23T09:59:59Z'),
    body: Buffer.from('{"id":9007199254740993}'),
    bodyBytes: 23,
    bodyTruncated: false,
    rejection: null,
    ...overrides,
  };
}

describe('InboxRepository.insertMany', () => {
  it('stores a group in one statement, each row exactly, duplicates (stored or in the group) as null', async () => {
    const shop = `${uniqueId('shop')}.myshopify.com`;
    const receivedAt = new Date('2026-11-23T10:00:01Z');
    const [before] = await repository.insertMany([{ delivery: delivery(shop, 'w-0'), receivedAt }]);
    expect(before?.id).toMatch(/^\d+$/);
    const rows = await repository.insertMany(
      [
        delivery(shop, 'w-1'),
        delivery(shop, 'w-0'),
        delivery(shop, 'w-2', {
          rejection: { code: 'malformed_json', message: 'not JSON' },
          productId: null,
        }),
        delivery(shop, 'w-1'),
        delivery(`other-${shop}`, 'w-1'),
      ].map((d) => ({ delivery: d, receivedAt })),
    );
    expect(rows.map((row) => (row ? row.webhookId : null))).toEqual(['w-1', null, 'w-2', null, 'w-1']);
    expect(new Set(rows.map((row) => row?.id).filter(Boolean)).size).toBe(3);
    const stored = await repository.findByWebhookId(shop, 'w-1');
    expect(stored).toMatchObject({
      id: rows[0]?.id,
      eventId: 'event-1',
      triggeredAt: '2026-11-23T10:00:00.123456789Z',
      productId: '9007199254740993',
      payloadUpdatedAt: new Date('2026-11-23T09:59:59Z'),
      bodyBytes: 23,
      bodyTruncated: false,
      state: 'received',
      outcome: null,
      receivedAt,
      enqueuedAt: null,
    });
    expect(stored?.body?.toString('utf8')).toBe('{"id":9007199254740993}');
    expect(await repository.findByWebhookId(shop, 'w-2')).toMatchObject({
      state: 'rejected',
      outcome: 'malformed_json',
      productId: null,
    });
  });

  it('marks a batch of deliveries enqueued in one statement', async () => {
    const shop = `${uniqueId('shop')}.myshopify.com`;
    const receivedAt = new Date('2026-11-23T10:00:01Z');
    const rows = await repository.insertMany(
      ['m-1', 'm-2', 'm-3'].map((id) => ({ delivery: delivery(shop, id), receivedAt })),
    );
    const at = new Date('2026-11-23T10:00:02Z');
    await repository.markEnqueued([rows[0]?.id as string, rows[2]?.id as string], at);
    expect((await repository.findByWebhookId(shop, 'm-1'))?.enqueuedAt).toEqual(at);
    expect((await repository.findByWebhookId(shop, 'm-2'))?.enqueuedAt).toBeNull();
    expect((await repository.findByWebhookId(shop, 'm-3'))?.enqueuedAt).toEqual(at);
  });
});
