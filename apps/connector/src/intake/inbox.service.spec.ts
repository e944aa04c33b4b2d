import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { ConnectorError } from '../platform/http/connector.error.js';
import type { EnqueueBatcher, StoredDelivery } from './enqueue-batcher.service.js';
import type { InboxRepository } from './inbox.repository.js';
import { InboxService } from './inbox.service.js';
import type { InboxEntry } from './inbox-entry.entity.js';
import { InboxWriter } from './inbox-writer.service.js';
import type { VerifiedDelivery } from './verified-delivery.js';

const delivery: VerifiedDelivery = {
  shop: 'demo.myshopify.com',
  webhookId: 'w-1',
  eventId: null,
  triggeredAt: null,
  topic: 'products/update',
  apiVersion: '2026-07',
  productId: '77',
  payloadUpdatedAt: null,
  body: Buffer.from('{}'),
  bodyBytes: 2,
  bodyTruncated: false,
  rejection: null,
};

function entry(overrides: Partial<InboxEntry> = {}): InboxEntry {
  return {
    id: '5',
    shop: delivery.shop,
    webhookId: delivery.webhookId,
    eventId: null,
    triggeredAt: null,
    topic: delivery.topic,
    apiVersion: null,
    productId: '77',
    payloadUpdatedAt: null,
    body: null,
    bodyBytes: 2,
    bodyTruncated: false,
    state: 'received',
    outcome: null,
    receivedAt: new Date(0),
    enqueuedAt: null,
    processedAt: null,
    ...overrides,
  };
}

/** The service over an inbox that inserts `inserted` (null: a duplicate of `existing`) and a batcher that takes `takes`. */
function service(options: { inserted: InboxEntry | null | Error; existing?: InboxEntry; takes?: boolean }) {
  const handed: StoredDelivery[] = [];
  const repository = {
    async insertMany() {
      if (options.inserted instanceof Error) throw options.inserted;
      return [options.inserted];
    },
    async findByWebhookId() {
      return options.existing ?? null;
    },
  };
  const batcher = {
    add(stored: StoredDelivery) {
      handed.push(stored);
      return options.takes ?? true;
    },
  };
  const inbox = new InboxService(
    repository as unknown as InboxRepository,
    new InboxWriter(repository as unknown as InboxRepository),
    batcher as unknown as EnqueueBatcher,
    new ManualClock(),
  );
  return { inbox, handed };
}

describe('InboxService', () => {
  it('answers once stored, handing the delivery to the enqueue batches', async () => {
    const { inbox, handed } = service({ inserted: entry() });
    expect(await inbox.accept(delivery)).toEqual({
      status: 'accepted',
      state: 'received',
      rejection: null,
      queued: true,
    });
    expect(handed).toEqual([{ id: '5', shop: delivery.shop, productId: '77' }]);
  });

  it('says not queued when the batches do not take it (the sweeper will)', async () => {
    const { inbox } = service({ inserted: entry(), takes: false });
    expect(await inbox.accept(delivery)).toMatchObject({ status: 'accepted', queued: false });
  });

  it('hands over again a duplicate whose enqueue never happened, and no other', async () => {
    const never = service({ inserted: null, existing: entry() });
    expect(await never.inbox.accept(delivery)).toMatchObject({ status: 'duplicate', queued: true });
    expect(never.handed).toHaveLength(1);
    const queued = service({ inserted: null, existing: entry({ enqueuedAt: new Date(0) }) });
    expect(await queued.inbox.accept(delivery)).toMatchObject({ status: 'duplicate', queued: true });
    const done = service({ inserted: null, existing: entry({ state: 'done', outcome: 'synced' }) });
    expect(await done.inbox.accept(delivery)).toMatchObject({ status: 'duplicate', queued: false });
    expect([...queued.handed, ...done.handed]).toEqual([]);
  });

  it('hands over nothing for a rejected delivery', async () => {
    const { inbox, handed } = service({
      inserted: entry({ state: 'rejected', outcome: 'malformed_json', productId: null }),
    });
    expect(await inbox.accept(delivery)).toEqual({
      status: 'accepted',
      state: 'rejected',
      rejection: 'malformed_json',
      queued: false,
    });
    expect(handed).toEqual([]);
  });

  it('answers storage_unavailable when the insert fails', async () => {
    const { inbox, handed } = service({ inserted: new Error('connection refused') });
    await expect(inbox.accept(delivery)).rejects.toBeInstanceOf(ConnectorError);
    await expect(inbox.accept(delivery)).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(handed).toEqual([]);
  });
});
