import { describe, expect, it } from 'vitest';
import { inWords, targetInWords } from './ui-words.js';

describe('the web view’s words', () => {
  it('says a write-back target as the Shopify field an operator knows', () => {
    expect(targetInWords('metafield:$app:catalog.variant_title')).toBe('metafield “variant title”');
    expect(targetInWords('metafield:custom.material')).toBe('metafield “material”');
    expect(targetInWords('seo.title')).toBe('SEO title');
    expect(targetInWords('descriptionHtml')).toBe('description');
    expect(targetInWords('tags')).toBe('tags');
    expect(targetInWords('something.new')).toBe('something.new');
  });

  it('says a merchant edit kept as such, not "conflict"', () => {
    expect(inWords('pushResult', 'conflict')).toBe("kept the merchant's edit");
    expect(inWords('pushResult', 'ok')).toBe('written');
    expect(inWords('pushPurpose', 'conflict')).toBe('merchant edit');
  });

  it('says outcomes, reasons, states and kinds in words', () => {
    expect(inWords('syncOutcome', 'nothing_pending')).toBe('nothing to do');
    expect(inWords('syncOutcome', 'not_found')).toBe('not found in Shopify');
    expect(inWords('syncReason', 'webhook')).toBe('a webhook');
    expect(inWords('syncReason', 'go-live')).toBe('going live');
    expect(inWords('deliveryState', 'received')).toBe('waiting for its sync');
    expect(inWords('topic', 'products/update')).toBe('product changed in Shopify');
    expect(inWords('pollTrigger', 'admin')).toBe('an operator');
    expect(inWords('jobKind', 'sync-product')).toBe('product sync');
  });

  it('reads a name it does not know with spaces, and nothing as nothing', () => {
    expect(inWords('syncOutcome', 'brand_new-outcome')).toBe('brand new outcome');
    expect(inWords('syncOutcome', null)).toBe('');
    expect(inWords('syncOutcome', 'malformed_json')).toBe('malformed json');
  });
});
