import { operation } from '../openapi/openapi-operation.js';

const tag = 'Portal: enrichment';
const security = 'portalToken' as const;
const run = {
  type: 'object',
  description: 'runId, mode, batchSize, status (RUNNING, DONE), steps, total, counts, items',
};

/** OpenAPI paths of the portal's enrichment runs (README, "Enrichment runs"). */
export const ENRICHMENT_PATHS: Record<string, Record<string, unknown>> = {
  '/portal/v1/accounts/{id}/enrichment/runs': {
    post: operation({
      operationId: 'portalStartEnrichmentRun',
      tag,
      security,
      summary:
        'Queue records for enrichment (auto: a step every CATALOG_SANDBOX_ENRICHMENT_STEP_MS; manual: on /step)',
      params: ['id'],
      body: {
        type: 'object',
        required: ['skuIds'],
        properties: {
          skuIds: { type: 'array', items: { type: 'string' } },
          mode: { enum: ['auto', 'manual'] },
          batchSize: { type: 'integer', minimum: 1 },
        },
      },
      data: run,
      errors: [400, 404, 409],
    }),
    get: operation({
      operationId: 'portalListEnrichmentRuns',
      tag,
      security,
      summary: 'The account runs, without items',
      params: ['id'],
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/enrichment/runs/{runId}': {
    get: operation({
      operationId: 'portalGetEnrichmentRun',
      tag,
      security,
      summary: 'One run with its items',
      params: ['id', 'runId'],
      data: run,
      errors: [404],
    }),
  },
  '/portal/v1/accounts/{id}/enrichment/runs/{runId}/step': {
    post: operation({
      operationId: 'portalStepEnrichmentRun',
      tag,
      security,
      summary: 'Advance a manual run by one step',
      params: ['id', 'runId'],
      data: run,
      errors: [404, 409],
    }),
  },
};
