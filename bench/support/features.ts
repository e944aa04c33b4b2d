import { ALL_QUEUES } from '../../apps/connector/src/platform/queues/queue-names.js';
import { NeedsFeature } from './benchmark.js';

/**
 * Stops a benchmark whose subject is not in this checkout: the connector has no queue whose name
 * matches `pattern` (each of its features runs as a queue with a job class, checked at boot).
 */
export function requireQueue(pattern: RegExp, feature: string): void {
  if (!ALL_QUEUES.some((name) => pattern.test(name))) throw new NeedsFeature(feature);
}
