import { describe, expect, it } from 'vitest';
import type { FailureDto } from '../admin/failure.dto.js';
import { failurePage, failureSubject } from './ui-failure-pages.js';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');

const failure = (overrides: Partial<FailureDto>): FailureDto => ({
  id: '7',
  shop: 'demo.myshopify.com',
  jobKind: 'sync-product',
  subjectKey: '42',
  state: 'open',
  error: { code: 'internal_error', message: '<script>boom</script>', retryable: true },
  attempts: 3,
  occurrences: 1,
  history: [{ at: '2026-11-28T11:50:00.000Z', attempts: 3, message: 'boom', jobId: '17' }],
  firstFailedAt: '2026-11-28T11:50:00.000Z',
  lastFailedAt: '2026-11-28T11:50:00.000Z',
  resolvedAt: null,
  resolvedBy: null,
  payload: { shop: 'demo.myshopify.com', productId: '42' },
  ...overrides,
});

describe('failureSubject', () => {
  it("leads a product's failures (sync, an image, a push) to the product's page", () => {
    const product = '/admin/ui/products/42?shop=demo.myshopify.com';
    expect(failureSubject(failure({})).href).toBe(product);
    expect(
      failureSubject(failure({ jobKind: 'sync-media', subjectKey: '42:gid://shopify/MediaImage/1' })).href,
    ).toBe(product);
  });

  it("leads a poll's, a run's or a job's failure to its own page", () => {
    const poll = failureSubject(failure({ jobKind: 'enrichment-poll', subjectKey: 'poll', payload: {} }));
    expect(poll).toEqual({ label: "the shop's enrichment poll", href: '/admin/ui/failures/7' });
    const run = failureSubject(
      failure({
        jobKind: 'resync-page',
        subjectKey: 'run:r1',
        payload: { shop: 'demo.myshopify.com', runId: 'r1' },
      }),
    );
    expect(run).toEqual({ label: 'resync run r1', href: '/admin/ui/failures/7' });
  });
});

describe('failurePage', () => {
  it('says the cause in words with the next step, and escapes the raw detail', () => {
    const html = failurePage(failure({}), 'csrf', NOW);
    expect(html).toContain('The catalog answered 500');
    expect(html).toContain('Next step:');
    expect(html).toContain('&lt;script&gt;boom&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('action="/admin/ui/failures/7/replay"');
  });

  it('says when and by what a resolved failure was closed, with no action left', () => {
    const html = failurePage(
      failure({
        state: 'resolved',
        resolvedAt: '2026-11-28T11:58:00.000Z',
        resolvedBy: 'sync-product job 18',
      }),
      'csrf',
      NOW,
    );
    expect(html).toContain('by the next success (sync-product job 18)');
    expect(html).toContain('2 min ago');
    expect(html).not.toContain('/replay"');
    expect(html).not.toContain('Next step:');
  });
});
