import { operation, query } from './openapi-operation.js';
import { csrfForm, HTML } from './ui-openapi-parts.js';

const REPORT_ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
};
const SHOP = { name: 'shop', in: 'path', required: true, schema: { type: 'string', maxLength: 255 } };
const page = (operationId: string, summary: string, parameters?: Array<Record<string, unknown>>) =>
  operation({
    operationId,
    tag: 'admin-ui',
    summary,
    security: 'adminSession',
    parameters,
    answer: HTML,
    errors: [400, 404],
  });

/** Why: the drift pages of the web view (issue 33) are routes like any other, so the OpenAPI document lists them. */
export const UI_DRIFT_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/ui/drift': { get: page('uiDriftList', "Each shop's latest drift report, and running one") },
  '/admin/ui/drift/shops/{shop}/run': {
    get: page('uiDriftRunConfirm', 'Confirm running a drift report for a shop', [SHOP]),
    post: {
      ...operation({
        operationId: 'uiDriftRun',
        tag: 'admin-ui',
        summary: "Run a drift report now; 303 to the report's page",
        security: 'adminSession',
        parameters: [SHOP],
        answer: HTML,
        successStatus: 303,
        errors: [400, 403],
      }),
      requestBody: csrfForm({}),
    },
  },
  '/admin/ui/drift/{id}': {
    get: page('uiDriftReport', "A drift report's findings by kind, each with its repair in words", [
      REPORT_ID,
    ]),
  },
  '/admin/ui/drift/{id}/repair': {
    get: page(
      'uiDriftRepairConfirm',
      'Confirm the chosen repairs (one finding, a selection, or all of a kind)',
      [
        REPORT_ID,
        query('ids', 'Finding ids (repeated or comma-separated).'),
        query('one', 'One finding id (its own button).'),
        query('kind', 'Every finding of this kind.'),
      ],
    ),
  },
  '/admin/ui/drift/{id}/repairs': {
    post: {
      ...operation({
        operationId: 'uiDriftRepair',
        tag: 'admin-ui',
        summary: 'Run the chosen repairs; the page says what each did',
        security: 'adminSession',
        parameters: [REPORT_ID],
        answer: HTML,
        errors: [400, 403, 404],
      }),
      requestBody: csrfForm({
        ids: { type: 'string', description: 'Comma-separated finding ids.' },
        kind: { type: 'string', description: 'Every finding of this kind.' },
        confirmLoss: {
          type: 'string',
          description:
            "Comma-separated skuIds whose approved enrichment the operator agreed to lose (the result page's confirm step).",
        },
      }),
    },
  },
  '/admin/ui/link/{shop}': {
    get: page(
      'uiLinkDryRun',
      'Link a pre-filled catalog: the dry run (changes nothing), the confirm step of the real run',
      [SHOP, query('match', 'sku:supplierSku (default), sku:gtin, barcode:supplierSku or barcode:gtin.')],
    ),
    post: {
      ...operation({
        operationId: 'uiLink',
        tag: 'admin-ui',
        summary: 'Link for real, then resync the shop; the page says what was linked',
        security: 'adminSession',
        parameters: [SHOP],
        answer: HTML,
        errors: [400, 403],
      }),
      requestBody: csrfForm({ match: { type: 'string', description: 'The match of the dry run.' } }),
    },
  },
};
