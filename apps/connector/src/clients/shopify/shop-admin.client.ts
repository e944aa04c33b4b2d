import { type GraphqlClient, GraphqlQueryError } from '@shopify/shopify-api';
import type { Clock } from '#lib/clock';
import { CostPacer, type CostSlot, type ShopCostPacer, type ThrottleStatus } from './cost-pacer.js';
import { ShopifyAdminError, ShopifyErrorCode } from './shopify-admin.error.js';

interface CostExtension {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus;
}

/** Where a shop's client gets a GraphQL client for the token of the moment, and a new token after a 401. */
export interface ShopGraphqlSource {
  /** Rejects with the shops' `ShopAuthError` when the shop has no usable token (it is passed on as is). */
  client(): Promise<{ graphql: GraphqlClient; token: string }>;
  /** After a 401 to `token`: whether a new token was had (a static token: false). */
  renewAfterUnauthorized(token: string): Promise<boolean>;
}

/**
 * One shop's Admin GraphQL API, cost-aware: each call is paced by the shop's last
 * `throttleStatus`, a `THROTTLED` answer is waited out (the library only retries HTTP 429/503)
 * up to `throttleRetries` times, a 401 is answered once by renewing the token and trying again,
 * and every failure becomes a classified `ShopifyAdminError`.
 */
export class ShopAdminClient {
  private readonly pacer: ShopCostPacer;
  /** Each raw document's requested cost as Shopify last answered it. */
  private readonly learnedCosts = new Map<string, number>();
  /**
   * Shopify's clock as its last answer's `Date` header gave it (to the second), beside this
   * process's clock when the answer came; null before any answer (`connector doctor`'s skew check).
   */
  lastAnswerDate: { serverMs: number; localMs: number } | null = null;

  constructor(
    readonly shop: string,
    private readonly source: ShopGraphqlSource,
    private readonly clock: Clock,
    private readonly throttleRetries: number,
    /** The replicas' shared pacer; without one, this process's own. */
    pacer?: ShopCostPacer,
  ) {
    this.pacer = pacer ?? new CostPacer(clock);
  }

  /** Runs a document; `expectedCost` is its requested cost, for pacing. Resolves to `data`. */
  async request<T>(document: string, variables: Record<string, unknown>, expectedCost: number): Promise<T> {
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      // The token first: a shop without one (uninstalled, needs_reauth) takes nothing from the
      // bucket its replicas share, where an unspent reservation is never given back.
      const { graphql, token } = await this.source.client();
      const slot = await this.pacer.reserve(expectedCost);
      try {
        const response = await graphql.request<T>(document, { variables, retries: 2 });
        this.noteDate(response.headers);
        await observe(slot, response.extensions, expectedCost);
        if (response.data === undefined) {
          throw new ShopifyAdminError(ShopifyErrorCode.GRAPHQL, `${this.shop}: answer without data`, true);
        }
        return response.data as T;
      } catch (error) {
        const failure = ShopifyAdminError.from(error, this.shop);
        if (failure.code === ShopifyErrorCode.UNAUTHORIZED && !renewed) {
          renewed = true;
          if (await this.source.renewAfterUnauthorized(token)) continue;
        }
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
  async raw(
    document: string,
    variables: Record<string, unknown>,
    renewed = false,
  ): Promise<RawGraphqlAnswer> {
    const { graphql, token } = await this.source.client();
    // Paced like `request`: the bucket must hold the document's requested cost (as Shopify last
    // answered it for this document) before it goes, so the write-back meets no `THROTTLED`.
    const expectedCost = this.learnedCosts.get(document) ?? FIRST_RAW_COST;
    const slot = await this.pacer.reserve(expectedCost);
    try {
      const response = await graphql.request(document, { variables, retries: 2 });
      await this.settle(slot, document, response.extensions, expectedCost);
      return { data: response.data, extensions: response.extensions as Record<string, unknown> };
    } catch (error) {
      if (!(error instanceof GraphqlQueryError)) {
        const failure = ShopifyAdminError.from(error, this.shop);
        if (failure.code === ShopifyErrorCode.UNAUTHORIZED && !renewed) {
          if (await this.source.renewAfterUnauthorized(token)) return this.raw(document, variables, true);
        }
        throw failure;
      }
      const body = (error.body ?? {}) as {
        data?: unknown;
        errors?: { graphQLErrors?: RawGraphqlAnswer['errors'] };
        extensions?: Record<string, unknown>;
      };
      await this.settle(slot, document, body.extensions, expectedCost);
      return { data: body.data, errors: body.errors?.graphQLErrors ?? [], extensions: body.extensions ?? {} };
    } finally {
      slot.release();
    }
  }

  /** Keeps the answer's `Date` header (the library hands headers over as lists of values by name). */
  private noteDate(headers: unknown): void {
    if (typeof headers !== 'object' || headers === null) return;
    const found = Object.entries(headers).find(([name]) => name.toLowerCase() === 'date')?.[1] as unknown;
    const text = Array.isArray(found) ? found[0] : found;
    const serverMs = typeof text === 'string' ? Date.parse(text) : Number.NaN;
    if (Number.isFinite(serverMs)) this.lastAnswerDate = { serverMs, localMs: this.clock.now() };
  }

  /** Settles a raw call's slot, and remembers the document's requested cost for its next call. */
  private async settle(
    slot: CostSlot,
    document: string,
    extensions: unknown,
    expectedCost: number,
  ): Promise<void> {
    const requested = costOf(extensions)?.requestedQueryCost;
    if (typeof requested === 'number') this.learnedCosts.set(document, requested);
    await observe(slot, extensions, expectedCost);
  }
}

/** What a raw document is paced at before Shopify has answered its cost once (a write-back mutation's order). */
const FIRST_RAW_COST = 50;

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
