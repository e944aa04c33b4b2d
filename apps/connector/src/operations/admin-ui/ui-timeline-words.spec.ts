import { describe, expect, it } from 'vitest';
import { callsInWords, eventInWords, relativeTime, timelineLine } from './ui-timeline-words.js';

const NOW = Date.parse('2026-05-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [44_000, 'just now'],
    [50_000, '1 min ago'],
    [3 * 60_000 + 10_000, '3 min ago'],
    [59 * 60_000, '59 min ago'],
    [2 * 3_600_000 + 1, '2 h ago'],
    [25 * 3_600_000, '1 day ago'],
    [3 * 86_400_000, '3 days ago'],
    [-60_000, 'just now'],
  ])('%i ms ago reads %s', (ms, words) => {
    expect(relativeTime(ago(ms), NOW)).toBe(words);
  });

  it('leaves a time it cannot read as it is', () => {
    expect(relativeTime('yesterday', NOW)).toBe('yesterday');
  });
});

describe('the timeline in words', () => {
  it('counts catalog calls by method', () => {
    expect(callsInWords([])).toBe('no catalog call');
    expect(callsInWords(['PATCH /v1/skus/1 200'])).toBe('1 PATCH to the catalog');
    expect(callsInWords(['POST /v1/skus 201', 'POST /v1/variants 201', 'PATCH /v1/skus/1 200'])).toBe(
      '2 POSTs and 1 PATCH to the catalog',
    );
  });

  it('says a sync as its reason and its calls', () => {
    const line = timelineLine(
      {
        at: ago(3 * 60_000),
        kind: 'sync',
        summary: 'sync (webhook) applied; 1 catalog call(s)',
        details: { calls: ['PATCH /v1/skus/9 200'] },
      },
      NOW,
    );
    expect(line).toBe('3 min ago: sync after a webhook: applied → 1 PATCH to the catalog');
  });

  it('says a webhook, a write-back, a failure and a job', () => {
    expect(
      eventInWords({ at: ago(0), kind: 'webhook', summary: 'products/update done (synced)', details: {} }),
    ).toBe('product changed in Shopify (webhook handled, synced)');
    expect(
      eventInWords({
        at: ago(0),
        kind: 'write-back',
        summary: 'push description → descriptionHtml: ok',
        details: { attribute: 'description', target: 'descriptionHtml', owner: 'y', purpose: 'push' },
      }),
    ).toBe("catalog's description written back to Shopify's description (approved content): written");
    // A merchant's edit the connector keeps reads as that, not as a "conflict".
    expect(
      eventInWords({
        at: ago(0),
        kind: 'write-back',
        summary: 'conflict variantTitle → metafield:$app:catalog.variant_title: conflict',
        details: {
          attribute: 'variantTitle',
          target: 'metafield:$app:catalog.variant_title',
          owner: 'y',
          purpose: 'conflict',
        },
      }),
    ).toBe(
      "the merchant edited Shopify's metafield “variant title”: kept the merchant's edit (the catalog's variantTitle is not written over it)",
    );
    expect(
      eventInWords({
        at: ago(0),
        kind: 'failure',
        summary: 'sync-product failed: shopify_unauthorized (open)',
      }),
    ).toBe('product sync failed with shopify_unauthorized; the failure is open');
    expect(eventInWords({ at: ago(0), kind: 'job', summary: 'sync (webhook) done' })).toBe(
      'sync job sync (webhook) done',
    );
    expect(eventInWords({ at: ago(0), kind: 'other', summary: 'as is' })).toBe('as is');
  });
});
