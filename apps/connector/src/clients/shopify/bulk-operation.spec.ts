import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { BulkOperationError, runBulkQuery } from './bulk-operation.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** An Admin client answering the bulk mutation, then each poll with the next state. */
function admin(
  started: { id: string } | null,
  states: Array<{ status: string; errorCode?: string; url?: string }>,
  userErrors: Array<{ message: string; code: string }> = [],
) {
  const polls: number[] = [];
  const clock = new ManualClock(0);
  const client = {
    request: async (document: string) => {
      if (document.includes('bulkOperationRunQuery'))
        return { bulkOperationRunQuery: { bulkOperation: started, userErrors } };
      polls.push(clock.now());
      const state = states.shift() ?? { status: 'RUNNING' };
      return {
        bulkOperation: { id: started?.id, errorCode: null, url: null, ...state },
      };
    },
  } as unknown as ShopAdminClient;
  return { client, clock, polls };
}

/** Runs the query, advancing the manual clock until it settles. */
async function settle<T>(clock: ManualClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const watched = promise.finally(() => {
    done = true;
  });
  for (let i = 0; i < 100 && !done; i++) await clock.advance(100);
  return watched;
}

describe('runBulkQuery', () => {
  it('polls soon, then twice as long each time up to the poll interval, until the run completes', async () => {
    const { client, clock, polls } = admin({ id: 'gid://shopify/BulkOperation/1' }, [
      { status: 'CREATED' },
      { status: 'RUNNING' },
      { status: 'RUNNING' },
      { status: 'RUNNING' },
      { status: 'COMPLETED', url: 'https://storage/x.jsonl' },
    ]);
    const result = await settle(
      clock,
      runBulkQuery(client, '{ products { edges { node { id } } } }', clock, 500),
    );
    expect(result).toEqual({ operationId: 'gid://shopify/BulkOperation/1', url: 'https://storage/x.jsonl' });
    expect(polls.slice(1).map((at, i) => at - (polls[i] as number))).toEqual([100, 200, 400, 500]);
  });

  it('fails with the reason: a refused query, a failed run, an expired one', async () => {
    const refused = admin(
      null,
      [],
      [
        {
          message: 'A bulk query operation for this app and shop is already in progress',
          code: 'OPERATION_IN_PROGRESS',
        },
      ],
    );
    await expect(runBulkQuery(refused.client, 'q', refused.clock, 100)).rejects.toMatchObject({
      reason: expect.stringMatching(/^userError:OPERATION_IN_PROGRESS/),
      operationId: null,
    });
    for (const [state, reason] of [
      [{ status: 'FAILED', errorCode: 'INTERNAL_SERVER_ERROR' }, 'FAILED:INTERNAL_SERVER_ERROR'],
      [{ status: 'EXPIRED' }, 'EXPIRED'],
      [{ status: 'CANCELED' }, 'CANCELED'],
    ] as const) {
      const { client, clock } = admin({ id: 'gid://shopify/BulkOperation/2' }, [state]);
      const failure = await settle(clock, runBulkQuery(client, 'q', clock, 100)).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(BulkOperationError);
      expect(failure).toMatchObject({ reason, operationId: 'gid://shopify/BulkOperation/2' });
    }
  });
});
