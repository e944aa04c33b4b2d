import { describe, expect, it } from 'vitest';
import { triageSync } from './sync-triage.js';

const at = (iso: string) => new Date(iso);
const update = (iso: string | null) => ({ topic: 'products/update', payloadUpdatedAt: iso ? at(iso) : null });
const applied = (iso: string) => ({ lastAppliedUpdatedAt: at(iso), tombstonedAt: null });

describe('triageSync', () => {
  it('leaves a tombstoned product alone, whatever arrives', () => {
    const state = { lastAppliedUpdatedAt: null, tombstonedAt: at('2026-01-01T00:00:00Z') };
    expect(triageSync('webhook', [update('2027-01-01T00:00:00Z')], state)).toEqual({
      kind: 'skip',
      outcome: 'tombstoned',
    });
    expect(triageSync('replay', [], state)).toEqual({ kind: 'skip', outcome: 'tombstoned' });
  });

  it('deletes when a products/delete is waiting', () => {
    const pending = [update('2026-01-01T00:00:00Z'), { topic: 'products/delete', payloadUpdatedAt: null }];
    expect(triageSync('webhook', pending, null)).toEqual({ kind: 'delete' });
  });

  it('drops payloads strictly older than the last applied one, and only those', () => {
    const state = applied('2026-01-01T12:00:00Z');
    expect(triageSync('webhook', [update('2026-01-01T11:59:59Z')], state)).toEqual({
      kind: 'skip',
      outcome: 'stale',
    });
    expect(triageSync('webhook', [update('2026-01-01T12:00:00Z')], state)).toEqual({ kind: 'load' });
    expect(
      triageSync('webhook', [update('2026-01-01T11:00:00Z'), update('2026-01-01T13:00:00Z')], state),
    ).toEqual({
      kind: 'load',
    });
    expect(triageSync('webhook', [update(null)], state)).toEqual({ kind: 'load' });
  });

  it('does nothing when an earlier run covered every delivery, unless replaying, resyncing or reconciling', () => {
    expect(triageSync('webhook', [], applied('2026-01-01T00:00:00Z'))).toEqual({
      kind: 'skip',
      outcome: 'nothing_pending',
    });
    expect(triageSync('sweep', [], null)).toEqual({ kind: 'skip', outcome: 'nothing_pending' });
    expect(triageSync('replay', [], applied('2026-01-01T00:00:00Z'))).toEqual({ kind: 'load' });
    for (const reason of ['resync', 'reconcile', 'drift'] as const) {
      expect(triageSync(reason, [], applied('2026-01-01T00:00:00Z'))).toEqual({ kind: 'load' });
    }
  });
});
