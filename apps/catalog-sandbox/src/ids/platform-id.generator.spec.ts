import { describe, expect, it } from 'vitest';
import { PLATFORM_ID_PATTERN } from '#lib/catalog-contract';
import { PlatformIdGenerator } from './platform-id.generator.js';

describe('PlatformIdGenerator', () => {
  it('issues two letters and 8 digits, unique across kinds', () => {
    const ids = new PlatformIdGenerator();
    const seen = new Set<string>();
    const digits = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = ids.next(i % 2 === 0 ? 'SK' : 'TK');
      expect(id).toMatch(PLATFORM_ID_PATTERN);
      seen.add(id);
      digits.add(id.slice(2));
    }
    expect(seen.size).toBe(20_000);
    expect(digits.size).toBe(20_000);
  });

  it('issues internal ids of 24 hex characters', () => {
    const ids = new PlatformIdGenerator();
    expect(ids.nextInternalId()).toMatch(/^[0-9a-f]{24}$/);
    expect(ids.nextInternalId()).not.toBe(ids.nextInternalId());
  });
});
