import {
  runWriteBackMutation,
  type SendWriteBackCall,
  type WriteBackMutationData,
} from '../../clients/shopify/write-back-calls.js';
import type { PlannedWrite } from '../decide/write-back-plan.js';
import {
  type AdminGraphql,
  type GraphqlResponse,
  isThrottled,
  type PacingOptions,
  pacedRequest,
  type QueryCost,
} from './admin-graphql.js';
import { answeredWrite } from './answered-state.js';
import type { WriteBackMutation } from './build-mutations.js';

/** The outcome of one planned write. */
export type WriteOutcome =
  | { write: PlannedWrite; ok: true }
  | {
      write: PlannedWrite;
      ok: false;
      /** Shopify's messages (`field: message (CODE)`), or what went wrong. */
      errors: string[];
      /**
       * `rejected`: Shopify refused it (userErrors, a GraphQL error): permanent until something
       * changes. `stale`: a `compareDigest` no longer matched: read again and plan again.
       * `unknown`: no answer (the write may have landed; its intent settles it on the next run).
       * `throttled`: still throttled after the retries.
       */
      kind: 'rejected' | 'stale' | 'unknown' | 'throttled';
    };

export interface ExecuteOptions extends PacingOptions {
  /** The cost status of the last answer before these calls, to pace the first one. */
  lastCost?: QueryCost;
}

/**
 * Makes the mutations, in order, pacing them by `extensions.cost.throttleStatus` (each waits
 * until the bucket holds a mutation's cost) and waiting out `THROTTLED` answers. Every write gets
 * an outcome: `userErrors` are failures with Shopify's messages, never ignored; a call that got
 * no answer leaves its writes `unknown` and the calls after it are not made. A write that
 * succeeded carries the hash of the value Shopify answered it holds (`answeredWrite`).
 */
export async function executeWriteBack(
  writes: readonly PlannedWrite[],
  mutations: readonly WriteBackMutation[],
  graphql: AdminGraphql,
  options: ExecuteOptions,
): Promise<{ outcomes: WriteOutcome[]; lastCost?: QueryCost }> {
  const outcomes = new Map<number, WriteOutcome>();
  let lastCost = options.lastCost;
  let stopped = false;
  const send: SendWriteBackCall<GraphqlResponse> = async (document, variables, cost) => {
    const answer = await pacedRequest(graphql, document, variables, {
      ...options,
      cost,
      ...(lastCost ? { lastCost } : {}),
    });
    lastCost = answer.lastCost;
    return answer.response;
  };
  for (const mutation of mutations) {
    const fail = (errors: string[], kind: Extract<WriteOutcome, { ok: false }>['kind']) => {
      for (const i of mutation.writes)
        outcomes.set(i, { write: writes[i] as PlannedWrite, ok: false, errors, kind });
    };
    if (stopped) {
      fail(['not attempted: an earlier call got no answer'], 'unknown');
      continue;
    }
    let response: GraphqlResponse & { data?: WriteBackMutationData | null };
    try {
      response = await runWriteBackMutation(send, mutation.root, mutation.variables);
    } catch (error) {
      fail([`no answer from Shopify: ${(error as Error).message}`], 'unknown');
      stopped = true;
      continue;
    }
    if (isThrottled(response)) {
      fail(['THROTTLED: the query cost budget did not recover in time'], 'throttled');
      continue;
    }
    const problem = problemsOf(mutation, response);
    if (problem) fail(problem.errors, problem.kind);
    else
      mutation.writes.forEach((i, position) => {
        outcomes.set(i, {
          write: answeredWrite(writes[i] as PlannedWrite, mutation, position, response),
          ok: true,
        });
      });
  }
  const ordered = writes.map(
    (write, i) =>
      outcomes.get(i) ?? {
        write,
        ok: false as const,
        errors: ['no mutation carried this write'],
        kind: 'rejected' as const,
      },
  );
  return { outcomes: ordered, ...(lastCost ? { lastCost } : {}) };
}

function problemsOf(
  mutation: WriteBackMutation,
  response: GraphqlResponse & { data?: WriteBackMutationData | null },
): { errors: string[]; kind: 'rejected' | 'stale' } | undefined {
  if (response.errors && response.errors.length > 0) {
    return {
      errors: response.errors.map(
        (e) => `${e.message}${e.extensions?.code ? ` (${e.extensions.code})` : ''}`,
      ),
      kind: 'rejected',
    };
  }
  const payload = response.data?.[mutation.root];
  if (!payload) return { errors: [`${mutation.root} answered no payload`], kind: 'rejected' };
  const userErrors = payload.userErrors ?? [];
  if (userErrors.length === 0) return undefined;
  return {
    errors: userErrors.map(
      (e) => `${e.field?.length ? `${e.field.join('.')}: ` : ''}${e.message}${e.code ? ` (${e.code})` : ''}`,
    ),
    kind: userErrors.every((e) => e.code === 'STALE_OBJECT' || e.code === 'INVALID_COMPARE_DIGEST')
      ? 'stale'
      : 'rejected',
  };
}
