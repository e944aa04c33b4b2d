import { Inject, Injectable } from '@nestjs/common';
import {
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLFormattedError,
  getOperationAST,
  Kind,
} from 'graphql';
import { Clock } from '#lib/clock';
import { BulkOperationService } from '../bulk/bulk-operation.service.js';
import { bulkMutations, bulkQueries } from '../bulk/bulk-resolvers.js';
import { SANDBOX_API_VERSION, type ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { AdminRequestRecord } from '../shops/admin-request-log.js';
import type { Shop } from '../shops/shop.js';
import type { AdminContext } from './admin-context.js';
import { adminSchema } from './admin-schema.js';
import { coerceVariables, parseDocument, validateDocument } from './document-checks.js';
import { fieldResolver } from './field-resolver.js';
import { actualQueryCost, type CostInput, requestedQueryCost, rootFields } from './graphql-cost.js';
import { formatError, plainError, THROTTLED_DOCUMENTATION } from './graphql-errors.js';
import { readBody } from './graphql-request.js';
import { metafieldDefinitionMutations } from './resolvers/metafield-definition-mutations.js';
import { metafieldMutations } from './resolvers/metafield-mutations.js';
import { productMutations } from './resolvers/product-mutations.js';
import { queryRoot } from './resolvers/query-root.js';
import { variantMutations } from './resolvers/variant-mutations.js';
import { webhookSubscriptionMutations } from './resolvers/webhook-subscription-mutations.js';

export interface GraphqlReply {
  status: number;
  body: Record<string, unknown>;
}

const MUTATION_ROOT: Record<string, unknown> = {
  ...productMutations,
  ...metafieldMutations,
  ...metafieldDefinitionMutations,
  ...variantMutations,
  ...webhookSubscriptionMutations,
  ...bulkMutations,
};

const QUERY_ROOT: Record<string, unknown> = { ...queryRoot, ...bulkQueries };

/**
 * The Admin GraphQL pipeline: parse and validate against the real schema (errors in
 * graphql-ruby's words, `ID` literals must be global ids), refuse root fields without a
 * resolver, check the variables, refuse a query above the single-query limit, charge the cost
 * bucket (or answer THROTTLED), execute, pay the actual cost, and log.
 */
@Injectable()
export class AdminGraphqlService {
  private readonly schema = adminSchema();

  constructor(
    private readonly clock: Clock,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
    private readonly bulk: BulkOperationService,
  ) {}

  async handle(
    shop: Shop,
    path: string,
    body: unknown,
    clientId?: string,
    scopes: readonly string[] = [],
  ): Promise<GraphqlReply> {
    const request = readBody(body);
    const log = (reply: GraphqlReply, extra: Partial<Omit<AdminRequestRecord, 'id'>> = {}) => {
      const cost = (
        reply.body.extensions as { cost?: { requestedQueryCost: number; actualQueryCost: number | null } }
      )?.cost;
      shop.adminRequests.add({
        at: new Date(this.clock.now()).toISOString(),
        api: 'graphql',
        method: 'POST',
        path,
        operationType: null,
        operationName: request?.operationName ?? null,
        rootFields: [],
        variables: request?.variables ?? null,
        outcome: reply.status !== 200 || reply.body.errors ? 'rejected' : 'ok',
        httpStatus: reply.status,
        requestedQueryCost: cost?.requestedQueryCost ?? null,
        actualQueryCost: cost?.actualQueryCost ?? null,
        ...extra,
      });
      return reply;
    };
    if (!request)
      return log({ status: 400, body: { errors: { query: 'Required parameter missing or invalid' } } });
    const parsed = parseDocument(request.query);
    if ('errors' in parsed) return log(this.reply(shop, parsed.errors, 0, 0));
    const { document } = parsed;
    const leniency = this.config.leniency;
    const validated = validateDocument(this.schema, document, leniency);
    if (validated.errors.length > 0) return log(this.reply(shop, validated.errors, 0, 0));
    const operation = getOperationAST(document, request.operationName);
    if (!operation) {
      const message = request.operationName
        ? `No operation named "${request.operationName}"`
        : 'An operation name is required';
      return log(this.reply(shop, [plainError(message, 'OPERATION_NOT_FOUND')], 0, 0));
    }
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    }
    const fields = rootFields({ fragments }, operation.selectionSet);
    const logged = {
      operationType: operation.operation,
      operationName: operation.name?.value ?? null,
      rootFields: fields.map((f) => f.name.value),
    };
    const root =
      operation.operation === 'mutation' ? MUTATION_ROOT : operation.operation === 'query' ? QUERY_ROOT : {};
    const missing = fields.find((field) => !(field.name.value in root));
    if (missing) {
      const message = `Field '${missing.name.value}' is not implemented by shopify-sandbox`;
      const error = new GraphQLError(message, {
        nodes: [missing],
        path: [missing.alias?.value ?? missing.name.value],
      });
      return log(this.reply(shop, [formatError(error, 'NOT_IMPLEMENTED')], 0, 0), logged);
    }
    const coerced = coerceVariables(
      this.schema,
      operation,
      request.variables ?? {},
      validated.index,
      leniency,
    );
    if ('errors' in coerced) return log(this.reply(shop, coerced.errors, 0, 0), logged);
    const costInput: CostInput = { schema: this.schema, operation, fragments, variables: coerced.coerced };
    const requested = requestedQueryCost(costInput);
    const maxCost = this.config.cost.maxQueryCost;
    if (requested > maxCost) {
      const message = `Query cost is ${requested}, which exceeds the single query max cost limit (${maxCost}).`;
      return log(
        this.reply(
          shop,
          [
            plainError(message, 'MAX_COST_EXCEEDED', {
              extensions: { cost: requested, maxCost, documentation: THROTTLED_DOCUMENTATION },
            }),
          ],
          requested,
          null,
        ),
        logged,
      );
    }
    if (!shop.costBucket.canAfford(requested)) {
      const throttled = plainError('Throttled', 'THROTTLED', {
        extensions: { documentation: THROTTLED_DOCUMENTATION },
      });
      return log(this.reply(shop, [throttled], requested, null), { ...logged, outcome: 'throttled' });
    }
    const context: AdminContext = {
      shop,
      clock: this.clock,
      apiVersion: SANDBOX_API_VERSION,
      webhookApiVersion: this.config.webhooks.apiVersion,
      timeZone: this.config.timeZone,
      leniency,
      searchWarnings: [],
      clientId,
      scopes,
      bulk: this.bulk,
    };
    const result = await execute({
      schema: this.schema,
      document,
      operationName: request.operationName,
      variableValues: request.variables ?? {},
      rootValue: root,
      contextValue: context,
      fieldResolver,
    });
    const actual = actualQueryCost(costInput, result.data);
    shop.costBucket.pay(actual);
    const errors = result.errors?.map((e) => formatError(e, 'INTERNAL_SERVER_ERROR'));
    const reply = this.reply(shop, errors, requested, actual, result.data ?? null);
    if (context.searchWarnings.length > 0) {
      (reply.body.extensions as Record<string, unknown>).search = context.searchWarnings;
    }
    return log(reply, { ...logged, outcome: errors ? 'error' : 'ok' });
  }

  private reply(
    shop: Shop,
    errors: GraphQLFormattedError[] | undefined,
    requested: number,
    actual: number | null,
    data?: unknown,
  ): GraphqlReply {
    const body: Record<string, unknown> = {};
    if (errors) body.errors = errors;
    if (data !== undefined) body.data = data;
    body.extensions = {
      cost: {
        requestedQueryCost: requested,
        actualQueryCost: actual,
        throttleStatus: shop.costBucket.status(),
      },
    };
    return { status: 200, body };
  }
}
