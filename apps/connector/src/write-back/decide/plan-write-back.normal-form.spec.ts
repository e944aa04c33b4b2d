import { describe, expect, it } from 'vitest';
import { approved, writeBackEntry } from '../../../test/support/write-back-mapping.js';
import {
  PRODUCT,
  parent,
  Store,
  shopifyState,
  subject,
  summary,
} from '../../../test/support/write-back-plan-inputs.js';
import { valueHash } from '../values/value-hash.js';
import type { ShopifyProductState } from './write-back-state.js';

// A Shopify that keeps values in a form of its own (no page says which; these are plausible
// rewrites): the planner must take that form for the value it pushed, never write it again.

const entries = [
  writeBackEntry('weightKg', 'NUMBER', {
    kind: 'metafield',
    namespace: '$app',
    key: 'weight_kg',
    type: 'number_decimal',
  }),
  writeBackEntry('shipWeight', 'TEXT', {
    kind: 'metafield',
    namespace: '$app',
    key: 'ship_weight',
    type: 'weight',
  }),
  writeBackEntry('launch', 'DATETIME', {
    kind: 'metafield',
    namespace: '$app',
    key: 'launch',
    type: 'date_time',
  }),
];

/** Shopify's answer after the writes: each metafield value rewritten in another form of itself. */
function rewrite(state: ShopifyProductState): ShopifyProductState {
  const forms: Record<string, (v: string) => string> = {
    number_decimal: (v) => v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, ''),
    weight: (v) => {
      const m = JSON.parse(v) as { value: number; unit: string };
      return `{"unit":"${m.unit.toUpperCase()}","value":"${m.value.toFixed(1)}"}`;
    },
    date_time: (v) => `${v}+00:00`,
  };
  return {
    ...state,
    metafields: state.metafields.map((m) => ({ ...m, value: forms[m.type]?.(m.value) ?? m.value })),
  };
}

describe('planWriteBack against a Shopify that answers values in its own form', () => {
  const record = parent(
    approved('weightKg', '1.50'),
    approved('shipWeight', '2 kg'),
    approved('launch', '2026-03-01T09:30:00Z'),
  );

  it('pushes once, then takes the rewritten values for its own: nothing written again, no conflict', () => {
    const store = new Store(shopifyState(PRODUCT));
    expect(summary(store.plan(subject(record), { entries })).writes).toHaveLength(3);
    store.shopify = rewrite(store.shopify);
    expect(store.shopify.metafields.map((m) => m.value)).toEqual([
      '1.5',
      '{"unit":"KG","value":"2.0"}',
      '2026-03-01T09:30:00+00:00',
    ]);
    // The push job keeps the hash of the form the mutation answered (answered-state.ts).
    store.states = store.states.map((s) => {
      const m = store.shopify.metafields.find((f) => s.target.endsWith(`.${f.key}`));
      return m ? { ...s, valueHash: valueHash({ kind: 'metafield', type: m.type, value: m.value }) } : s;
    });
    const again = store.plan(subject(record), { entries });
    expect(summary(again)).toMatchObject({
      writes: [],
      conflicts: [],
      skipped: ['weightKg: unchanged', 'shipWeight: unchanged', 'launch: unchanged'],
    });
  });

  it('adopts a value Shopify holds in another form without writing it', () => {
    const store = new Store(
      shopifyState(PRODUCT, {
        metafields: [
          {
            ownerId: PRODUCT,
            namespace: 'app--1',
            key: 'weight_kg',
            type: 'number_decimal',
            value: '1.5',
            compareDigest: 'd',
          },
        ],
      }),
    );
    const plan = store.plan(subject(parent(approved('weightKg', '1.50'))), { entries: entries.slice(0, 1) });
    expect(summary(plan)).toMatchObject({ writes: [], settled: ['weightKg: already-in-shopify'] });
  });

  it('still writes a value that differs once both are in normal form', () => {
    const store = new Store(
      shopifyState(PRODUCT, {
        metafields: [
          {
            ownerId: PRODUCT,
            namespace: 'app--1',
            key: 'weight_kg',
            type: 'number_decimal',
            value: '1.05',
            compareDigest: 'd',
          },
        ],
      }),
    );
    const plan = store.plan(subject(parent(approved('weightKg', '1.50'))), { entries: entries.slice(0, 1) });
    expect(summary(plan).writes).toEqual(['push weightKg -> metafield:$app.weight_kg']);
  });
});
