import { describe, expect, it } from 'vitest';
import { resyncSelectionConfirmPage, resyncSelectionResultPage, selectionBox } from './ui-resync-pages.js';

describe('the resync selection pages', () => {
  const item = { shop: 'demo.myshopify.com', productId: '7390000000001' };

  it('ticks a product as <shop>:<id> into the selection form', () => {
    expect(selectionBox(item)).toBe(
      '<input type="checkbox" form="resync-selection" name="item" value="demo.myshopify.com:7390000000001" aria-label="Select product 7390000000001 of demo.myshopify.com">',
    );
  });

  it('confirms the selection with one CSRF form, and says when nothing is ticked', () => {
    const html = resyncSelectionConfirmPage([item, { ...item, productId: '7390000000002' }], 'tok<en>');
    expect(html).toContain('<h1>Resync 2 product(s)?</h1>');
    expect(html).toContain(
      '<input type="hidden" name="items" value="demo.myshopify.com:7390000000001,demo.myshopify.com:7390000000002">',
    );
    expect(html).toContain('value="tok&lt;en&gt;"');
    expect(resyncSelectionConfirmPage([], 'token')).toContain('No product selected');
  });

  it("names each product's run, or why it did not start", () => {
    const html = resyncSelectionResultPage(
      [
        { ...item, runId: 'run-1', error: null },
        { ...item, productId: '7390000000002', runId: null, error: 'Shop <x> is not configured.' },
      ],
      'token',
    );
    expect(html).toContain('Resync started for 1 of 2 product(s).');
    expect(html).toContain('<li data-run="run-1">');
    expect(html).toContain('not started (Shop &lt;x&gt; is not configured.)');
  });
});
