import { restTime } from '../common/shop-time.js';
import { type BulkOperationRecord, bulkOperationGid } from './bulk-operation.js';

/** The subscription topic (GraphQL enum); its header form is `bulk_operations/finish`. */
export const BULK_FINISH_TOPIC = 'BULK_OPERATIONS_FINISH';

/**
 * The `bulk_operations/finish` payload of Shopify's webhook reference: the run's gid, its
 * times in the shop's zone (REST style), error code, status and type in lower case.
 */
export function bulkFinishPayload(record: BulkOperationRecord, timeZone: string): Record<string, unknown> {
  return {
    admin_graphql_api_id: bulkOperationGid(record.id),
    completed_at:
      record.status === 'COMPLETED' && record.finishedAt !== null
        ? restTime(record.finishedAt, timeZone)
        : null,
    created_at: restTime(record.createdAt, timeZone),
    error_code: record.errorCode?.toLowerCase() ?? null,
    status: record.status.toLowerCase(),
    type: record.type.toLowerCase(),
  };
}
