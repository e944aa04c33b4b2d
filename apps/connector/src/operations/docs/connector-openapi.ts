import { OPERATIONS_PATHS } from './operations-openapi.js';
import { OVERVIEW_PATHS } from './overview-openapi.js';
import { UI_ACTIONS_PATHS } from './ui-actions-openapi.js';
import { UI_DRIFT_PATHS } from './ui-drift-openapi.js';

/**
 * The hand-written entries still left: the web view's HTML pages (/admin/ui/...). Every other
 * route is declared on its controller; `connector-document.ts` merges these paths in.
 */
export function buildConnectorOpenApi(): Record<string, unknown> {
  return {
    paths: {
      ...OPERATIONS_PATHS,
      ...OVERVIEW_PATHS,
      ...UI_ACTIONS_PATHS,
      ...UI_DRIFT_PATHS,
    },
    components: { schemas: {} },
  };
}
