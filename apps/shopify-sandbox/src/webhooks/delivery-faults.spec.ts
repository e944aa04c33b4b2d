import { describe, expect, it } from 'vitest';
import { NO_FAULTS, parseDeliveryFaults } from './delivery-faults.js';

describe('delivery faults', () => {
  it('merges a partial body onto the current faults', () => {
    expect(parseDeliveryFaults({ duplicate: 0.5, reorder: true }, NO_FAULTS)).toEqual({
      faults: { ...NO_FAULTS, duplicate: 0.5, reorder: true },
    });
  });

  it('lists every problem', () => {
    const parsed = parseDeliveryFaults({ drop: 2, delayMs: -1, reorder: 'yes' }, NO_FAULTS);
    expect(parsed).toEqual({
      problems: [
        'drop must be a probability between 0 and 1',
        'delayMs must be a non-negative integer',
        'reorder must be true or false',
      ],
    });
  });
});
