import { describe, expect, it } from 'vitest';
import { configureWorkers, WORKER_OPTIONS } from './worker-options.js';

describe('configureWorkers', () => {
  it('sets the job lock and the stalled check of every worker from the configuration', () => {
    configureWorkers({ lockMs: 4_000 });
    expect(WORKER_OPTIONS).toEqual({ lockDuration: 4_000, stalledInterval: 4_000 });
    configureWorkers({ lockMs: 30_000 });
    expect(WORKER_OPTIONS).toEqual({ lockDuration: 30_000, stalledInterval: 30_000 });
  });
});
