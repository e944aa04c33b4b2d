import { describe, expect, it } from 'vitest';
import { logContext } from '../platform/http/log-context.js';
import type { InboxRepository } from './inbox.repository.js';
import type { InboxEntry } from './inbox-entry.entity.js';
import { InboxWriter } from './inbox-writer.service.js';
import type { VerifiedDelivery } from './verified-delivery.js';

function delivery(webhookId: string, productId: string | null = '1'): VerifiedDelivery {
  return {
    shop: 'demo.myshopify.com',
    webhookId,
    eventId: null,
    triggeredAt: null,
    topic: 'products/update',
    apiVersion: null,
    productId,
    payloadUpdatedAt: null,
    body: null,
    bodyBytes: 0,
    bodyTruncated: false,
    rejection: null,
  };
}

type Group = ReadonlyArray<{ delivery: VerifiedDelivery }>;

/**
 * An inbox whose statements wait until released; a webhook id starting with `bad` makes its
 * statement fail, `dup` is stored already.
 */
function world() {
  const statements: string[][] = [];
  const releases: Array<() => void> = [];
  const contexts: Array<string | undefined> = [];
  const repository = {
    async insertMany(group: Group): Promise<Array<InboxEntry | null>> {
      statements.push(group.map((g) => g.delivery.webhookId));
      contexts.push(logContext.current()?.correlationId);
      await new Promise<void>((resolve) => releases.push(resolve));
      if (group.some((g) => g.delivery.webhookId.startsWith('bad'))) throw new Error('refused');
      return group.map((g) =>
        g.delivery.webhookId.startsWith('dup') ? null : ({ id: `id-${g.delivery.webhookId}` } as InboxEntry),
      );
    },
  };
  const writer = new InboxWriter(repository as unknown as InboxRepository);
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return {
    writer,
    statements,
    contexts,
    /** Lets every statement under way finish. */
    async releaseAll() {
      await settle();
      for (const release of releases.splice(0)) release();
      await settle();
    },
  };
}

const at = new Date(0);

describe('InboxWriter', () => {
  it('inserts at once while a slot is free, and groups what arrives while both are busy', async () => {
    const w = world();
    const answers = ['a', 'b', 'c', 'd', 'dup-e'].map((id) =>
      logContext.run({ correlationId: `req-${id}` }, () => w.writer.insert(delivery(id), at)),
    );
    await w.releaseAll();
    expect(w.statements.slice(0, 2)).toEqual([['a'], ['b']]);
    await w.releaseAll();
    expect(w.statements).toEqual([['a'], ['b'], ['c', 'd', 'dup-e']]);
    // A lone delivery's statement logs as its request; a shared one as no single request.
    expect(w.contexts).toEqual(['req-a', 'req-b', 'inbox:insert']);
    const rows = await Promise.all(answers);
    expect(rows.map((row) => row?.id ?? null)).toEqual(['id-a', 'id-b', 'id-c', 'id-d', null]);
  });

  it('tries a failed group one delivery at a time, so only the refused one fails', async () => {
    const w = world();
    const first = [w.writer.insert(delivery('x'), at), w.writer.insert(delivery('y'), at)];
    const group = ['f', 'bad-g', 'h'].map((id) => w.writer.insert(delivery(id), at));
    const outcomes = Promise.allSettled(group);
    await w.releaseAll(); // x and y
    await w.releaseAll(); // the group fails
    await w.releaseAll(); // each alone
    const settled = await outcomes;
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(w.statements).toEqual([['x'], ['y'], ['f', 'bad-g', 'h'], ['f'], ['bad-g'], ['h']]);
    expect((await Promise.all(first)).map((row) => row?.id)).toEqual(['id-x', 'id-y']);
  });

  it('rejects a delivery inserted alone when its statement fails', async () => {
    const w = world();
    const answer = w.writer.insert(delivery('bad-alone'), at);
    const settled = Promise.allSettled([answer]);
    await w.releaseAll();
    expect((await settled)[0]?.status).toBe('rejected');
    expect(w.statements).toEqual([['bad-alone']]);
  });
});
