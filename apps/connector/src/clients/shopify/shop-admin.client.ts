import { type GraphqlClient, GraphqlQueryError } from '@shopify/shopify-api';
import type { Clock } from '#lib/clock';
import { CostPacer, type CostSlot, type ShopCostPacer, type ThrottleStatus } from './cost-pacer.js';
import { ShopifyAdminError, ShopifyErrorCode } from './shopify-admin.error.js';

interface CostExtension {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus;
}

/**
 * One shop's Admin GraphQL API, cost-aware: each call is paced by the shop's last
 * `throttleStatus`, a `THROTTLED` answer is waited out (the library only retries HTTP 429/503)
 * up to `throttleRetries` times, and every failure becomes a classified `ShopifyAdminError`.
 */
export class ShopAdminClient {
  private readonly pacer: ShopCostPacer;

  constructor(
    readonly shop: string,
    private readonly graphql: GraphqlClient,
    private readonly clock: Clock,
    private readonly throttleRetries: number,
    /** The replicas' shared pacer; without one, this process's own. */
    pacer?: ShopCostPacer,
  ) {
    this.pacer = pacer ?? new CostPacer(clock);
  }

  /** Runs a document; `expectedCost` is its requested cost, for pacing. Resolves to `data`. */
  async request<T>(document: string, variables: Record<string, unknown>, expectedCost: number): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const slot = await this.pacer.reserve(expectedCost);
      try {
        const response = await this.graphql.request<T>(document, { variables, retries: 2 });
        await observe(slot, response.extensions, expectedCost);
        if (response.data === undefined) {
          throw new ShopifyAdminError(ShopifyErrorCode.GRAPHQL, `${this.shop}: answer without data`, true);
        }
        return response.data as T;
      } catch (error) {
        const failure = ShopifyAdminError.from(error, this.shop);
        if (error instanceof GraphqlQueryError) await observe(slot, error.body?.extensions, expectedCost);
        if (failure.code !== ShopifyErrorCode.THROTTLED || attempt >= this.throttleRetries) throw failure;
        slot.release();
        // The pacer now knows the bucket; make sure at least a little time passes.
        if (this.pacer.waitFor(expectedCost) === 0) await this.clock.sleep(1_000);
      } finally {
        slot.release();
      }
    }
  }

  /**
   * One call answered as Shopify sent it, GraphQL errors (`THROTTLED` included), `userErrors` and
   * `extensions.cost` untouched: for callers that pace themselves and must read every error (the
   * write-back). Rejects only when no answer came (network, HTTP errors after the retries).
   */
  async raw(document: string, variables: Record<string, unknown>): Promise<RawGraphqlAnswer> {
    try {
      const response = await this.graphql.request(document, { variables, retries: 2 });
      this.pacer.observe(costOf(response.extensions)?.throttleStatus);
      return { data: response.data, extensions: response.extensions as Record<string, unknown> };
    } catch (error) {
      if (!(error instanceof GraphqlQueryError)) throw ShopifyAdminError.from(error, this.shop);
      const body = (error.body ?? {}) as {
        data?: unknown;
        errors?: { graphQLErrors?: RawGraphqlAnswer['errors'] };
        extensions?: Record<string, unknown>;
      };
      this.pacer.observe(costOf(body.extensions)?.throttleStatus);
      return { data: body.data, errors: body.errors?.graphQLErrors ?? [], extensions: body.extensions ?? {} };
    }
  }
}

/** An Admin GraphQL answer as Shopify sent it (HTTP 200): data, GraphQL errors, extensions. */
export interface RawGraphqlAnswer {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: { code?: string } & Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

/** Hands an answer's report and refund (requested less actual cost) to its slot. */
async function observe(slot: CostSlot, extensions: unknown, expectedCost: number): Promise<void> {
  const cost = costOf(extensions);
  const requested = cost?.requestedQueryCost ?? expectedCost;
  // No actual cost: the query did not run (THROTTLED), Shopify took nothing.
  await slot.observe(cost?.throttleStatus, Math.max(0, requested - (cost?.actualQueryCost ?? 0)));
}

function costOf(extensions: unknown): CostExtension | undefined {
  return (extensions as { cost?: CostExtension } | undefined)?.cost;
}
