import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeBackEntry } from '../../../test/support/write-back-mapping.js';
import type { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import type { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { SyncSettings } from '../../platform/config/settings.js';
import type { ShopModes } from '../../shops/shop-modes.service.js';
import { MetafieldDefinitions } from './metafield-definitions.service.js';

const entry = writeBackEntry('material', 'TEXT', {
  kind: 'metafield',
  namespace: '$app:catalog',
  key: 'material',
  type: 'single_line_text_field',
});

/** An Admin client that refuses (the shop is not installed yet) until `installed` is set. */
function shopify(state: { installed: boolean; calls: number }) {
  return {
    forShop: () => ({
      request: async (document: string) => {
        state.calls += 1;
        if (!state.installed) throw new Error('demo.myshopify.com is uninstalled');
        return document.includes('metafieldDefinitionCreate')
          ? { metafieldDefinitionCreate: { userErrors: [] } }
          : { metafieldDefinitions: { nodes: [] } };
      },
    }),
  } as unknown as ShopifyAdmin;
}

/** The shop's mode, switched by the test. */
function modes(state: { mode: 'live' | 'shadow' }) {
  return { modeOf: async () => state.mode } as unknown as ShopModes;
}

describe('MetafieldDefinitions', () => {
  afterEach(() => vi.useRealTimers());

  it('tries a definition that could not be made again after the recheck interval, backing off, until it is made', async () => {
    vi.useFakeTimers();
    const state = { installed: false, calls: 0 };
    const settings = { mappingRecheckMs: 1_000, mappingRefreshMs: 3_000 } as SyncSettings;
    const definitions = new MetafieldDefinitions(
      {} as ShopMappings,
      shopify(state),
      settings,
      modes({ mode: 'live' }),
    );
    const first = await definitions.ensure('demo.myshopify.com', { writeBack: [entry] });
    expect(first.map((o) => o.outcome)).toEqual(['failed']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.calls).toBe(2);
    // Backing off: the next try comes 2 s later, not 1.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.calls).toBe(2);
    state.installed = true;
    await vi.advanceTimersByTimeAsync(1_000);
    // The lookup and the create: made, and no further try.
    expect(state.calls).toBe(4);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.calls).toBe(4);
    definitions.onModuleDestroy();
  });

  it('in shadow plans a missing definition instead of creating it, and makes it once the shop is live', async () => {
    const state = { installed: true, calls: 0 };
    const mode: { mode: 'live' | 'shadow' } = { mode: 'shadow' };
    const settings = { mappingRecheckMs: 60_000, mappingRefreshMs: 60_000 } as SyncSettings;
    const mappings = { mapping: () => ({ writeBack: [entry] }) } as unknown as ShopMappings;
    const definitions = new MetafieldDefinitions(mappings, shopify(state), settings, modes(mode));
    const planned = await definitions.ensure('demo.myshopify.com', { writeBack: [entry] });
    expect(planned.map((o) => o.outcome)).toEqual(['planned']);
    // The lookup only: no metafieldDefinitionCreate left the connector.
    expect(state.calls).toBe(1);
    mode.mode = 'live';
    const made = await definitions.recheck('demo.myshopify.com');
    expect(made.map((o) => o.outcome)).toEqual(['created']);
    expect(state.calls).toBe(3);
    definitions.onModuleDestroy();
  });
});
