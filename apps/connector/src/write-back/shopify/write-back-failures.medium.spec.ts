import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approved } from '../../../test/support/write-back-mapping.js';
import { WriteBackSandbox } from '../../../test/support/write-back-sandbox.js';
import { planWriteBack } from '../decide/plan-write-back.js';
import type { PlannedWrite } from '../decide/write-back-plan.js';
import { buildMutations } from './build-mutations.js';
import { executeWriteBack } from './execute-write-back.js';

// What goes wrong in Shopify comes back as failures with Shopify's words; throttling is waited out.
describe('write-back failures against the Shopify sandbox', () => {
  let s: WriteBackSandbox;
  beforeAll(async () => {
    s = await WriteBackSandbox.start();
  });
  afterAll(() => s.close());

  it('surfaces userErrors as failures with Shopify’s messages: a stale digest, a blank title, a bad value', async () => {
    const product = await s.shirt();
    const material = s.entries.filter((e) => e.attribute === 'material');
    const first = await s.push([], s.subject(product, [approved('material', 'Linen')]), material);
    // Read, then someone else writes the metafield before the connector's write lands.
    const read = await s.read(product.id);
    if (!read) throw new Error('no product');
    const plan = planWriteBack({
      subject: s.subject(product, [approved('material', 'Hemp')]),
      entries: material,
      states: first.states,
      shopify: read,
    });
    await s.graphql(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }',
      {
        m: [{ ownerId: product.id, namespace: '$app:catalog', key: 'material', value: 'Linen blend' }],
      },
    );
    const base = plan.writes[0] as PlannedWrite;
    const badValue: PlannedWrite = {
      ...base,
      op: {
        kind: 'metafield-set',
        ownerId: product.id,
        namespace: '$app:catalog',
        key: 'weight_grams',
        type: 'number_integer',
        value: 'twelve',
        compareDigest: null,
      },
    };
    const writes: PlannedWrite[] = [
      base,
      { ...base, op: { kind: 'field', field: 'title', value: '' } },
      badValue,
    ];
    const { outcomes } = await executeWriteBack(writes, buildMutations(product.id, writes), s.graphql, {
      sleep: s.sleep,
    });
    // metafieldsSet is atomic: the stale digest and the bad value fail the batch together.
    expect(outcomes.map((o) => (o.ok ? 'ok' : `${o.kind}: ${o.errors.join('; ')}`))).toEqual([
      expect.stringMatching(/^(stale|rejected): .*compareDigest: .*\(STALE_OBJECT\)/),
      "rejected: title: Title can't be blank",
      expect.stringMatching(/^(stale|rejected): .*compareDigest: .*\(STALE_OBJECT\)/),
    ]);
    const after = await s.read(product.id);
    expect(after?.metafields.map((m) => [m.key, m.value])).toEqual([['material', 'Linen blend']]);
    expect(after?.title).toBe('Linen shirt');

    const stale = await executeWriteBack([base], buildMutations(product.id, [base]), s.graphql, {
      sleep: s.sleep,
    });
    expect(stale.outcomes[0]).toMatchObject({ ok: false, kind: 'stale' });
    const bad = await executeWriteBack([badValue], buildMutations(product.id, [badValue]), s.graphql, {
      sleep: s.sleep,
    });
    expect(bad.outcomes[0]).toMatchObject({ ok: false, kind: 'rejected' });
    expect(bad.outcomes[0]?.ok === false && bad.outcomes[0].errors[0]).toMatch(
      /^metafields\.0\.value: .*integer.*\(INVALID_VALUE\)$/,
    );
  });

  it('waits out THROTTLED and paces its writes by the restore rate', async () => {
    const product = await s.shirt();
    await s.h.control('PUT', `shops/${s.h.shopDomain}/cost-bucket`, { currentlyAvailable: 0 });
    s.sleeps.length = 0;
    const result = await s.push(
      [],
      s.subject(product, [approved('seoTitle', 'AI title'), approved('aiTags', ['eco'])]),
    );
    expect(result.outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(s.sleeps.length).toBeGreaterThan(0);
    const logged = await s.h.adminRequests({ api: 'graphql' });
    expect(logged.some((r) => r.outcome === 'throttled')).toBe(true);
    expect((await s.read(product.id))?.seo.title).toBe('AI title');
  });
});
