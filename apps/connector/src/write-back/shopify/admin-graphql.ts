/** `extensions.cost` of an Admin GraphQL answer. */
export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** An Admin GraphQL answer (HTTP 200): data, errors (throttling included) and the cost. */
export interface GraphqlResponse {
  data?: unknown;
  errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } & Record<string, unknown> }>;
  extensions?: { cost?: QueryCost } & Record<string, unknown>;
}

/**
 * How the write-back calls Shopify: one Admin GraphQL request, answered with its parsed body.
 * The connector's Shopify client (`@shopify/shopify-api`) provides it; tests pass a fetch.
 * It rejects only when no answer came (network, HTTP 5xx after the client's retries).
 */
export type AdminGraphql = (query: string, variables: Record<string, unknown>) => Promise<GraphqlResponse>;

/** Whether Shopify refused the request for lack of query-cost budget (retry after a wait). */
export function isThrottled(response: GraphqlResponse): boolean {
  return (response.errors ?? []).some((e) => e.extensions?.code === 'THROTTLED');
}

/**
 * How long to wait before a request of `nextCost` points so that the bucket holds it, from the
 * last answer's `throttleStatus` (restored at `restoreRate` points per second). 0 when it fits
 * or when the answer carried no cost.
 */
export function throttleDelayMs(cost: QueryCost | undefined, nextCost: number): number {
  const status = cost?.throttleStatus;
  if (!status || status.restoreRate <= 0) return 0;
  const missing = Math.min(nextCost, status.maximumAvailable) - status.currentlyAvailable;
  return missing <= 0 ? 0 : Math.ceil((missing / status.restoreRate) * 1000);
}

/** How calls wait: on the connector's Clock, so tests drive time. */
export interface PacingOptions {
  sleep: (ms: number) => Promise<void>;
  /** Retries of a throttled call before its answer is returned as is (default 5). */
  throttleRetries?: number;
}

/**
 * One Admin GraphQL call, paced and throttle-proof: first waits until the bucket (as the last
 * answer's `throttleStatus` left it) holds `cost` points, then on `THROTTLED` waits for the
 * requested cost to be restored (at least a second) and tries again. Rejects only when no
 * answer came; after the retries a throttled answer is returned for the caller to report.
 */
export async function pacedRequest(
  graphql: AdminGraphql,
  query: string,
  variables: Record<string, unknown>,
  options: PacingOptions & {
    cost: number;
    lastCost?: QueryCost;
    /** Points kept for the call that follows at once (a read right before its write). */
    reserve?: number;
  },
): Promise<{ response: GraphqlResponse; lastCost?: QueryCost }> {
  let lastCost = options.lastCost;
  const reserve = options.reserve ?? 0;
  for (let attempt = 0; ; attempt++) {
    const wait = throttleDelayMs(lastCost, options.cost + reserve);
    if (wait > 0) await options.sleep(wait);
    const response = await graphql(query, variables);
    lastCost = response.extensions?.cost ?? lastCost;
    if (!isThrottled(response) || attempt >= (options.throttleRetries ?? 5)) {
      return { response, ...(lastCost ? { lastCost } : {}) };
    }
    const requested = response.extensions?.cost?.requestedQueryCost ?? options.cost;
    await options.sleep(Math.max(1_000, throttleDelayMs(lastCost, requested + reserve)));
    lastCost = undefined;
  }
}
