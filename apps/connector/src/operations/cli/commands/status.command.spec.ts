import { describe, expect, it } from 'vitest';
import { attributeWords } from './status.command.js';

// `connector status <id>` prints the catalog's attribute summary in words, never as raw JSON.
describe('attributeWords', () => {
  it('says how many enrichable attributes are completed, and the share', () => {
    expect(
      attributeWords({ enrichableTotal: 12, enrichableCompleted: 7, enrichableCompletionRate: 58.33 }),
    ).toBe('7 of 12 enrichable attributes completed (58 %)');
    expect(attributeWords({ enrichableTotal: 1, enrichableCompleted: 0 })).toBe(
      '0 of 1 enrichable attribute completed (0 %)',
    );
  });

  it('says so when the catalog gave no summary', () => {
    expect(attributeWords(null)).toBe('no attribute summary');
    expect(attributeWords({})).toBe('no attribute summary');
  });
});
