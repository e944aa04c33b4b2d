import { describe, expect, it } from 'vitest';
import { olderThanInstallation, SHOP_REDACT_DELAY_MS } from './lifecycle-staleness.js';

const INSTALLED = new Date('2026-11-28T12:00:00.000Z');
const at = (offsetMs: number) => new Date(INSTALLED.getTime() + offsetMs);
const HOUR = 3_600_000;

describe('a lifecycle delivery older than the current installation', () => {
  it('app/uninstalled triggered before the installation began is ignored; after it, it applies', () => {
    const active = { state: 'active' as const, installedAt: INSTALLED };
    expect(olderThanInstallation('app/uninstalled', at(-HOUR), active)).toContain(
      'before the current installation',
    );
    expect(olderThanInstallation('app/uninstalled', at(1), active)).toBeNull();
  });

  it('applies without a trigger time or an installation time', () => {
    expect(
      olderThanInstallation('app/uninstalled', null, { state: 'active', installedAt: INSTALLED }),
    ).toBeNull();
    expect(
      olderThanInstallation('shop/redact', at(-HOUR), { state: 'active', installedAt: null }),
    ).toBeNull();
  });

  it('shop/redact of an installed shop: ignored within 48 hours of the installation, applied after', () => {
    const active = { state: 'active' as const, installedAt: INSTALLED };
    expect(olderThanInstallation('shop/redact', at(-HOUR), active)).toContain(
      'before the current installation',
    );
    expect(olderThanInstallation('shop/redact', at(24 * HOUR), active)).toContain(
      '48 hours after an uninstall',
    );
    // Installed before the uninstall the redact follows (its app/uninstalled was lost): applies.
    expect(olderThanInstallation('shop/redact', at(SHOP_REDACT_DELAY_MS + HOUR), active)).toBeNull();
  });

  it('shop/redact of a shop seen uninstalled since its installation applies at once', () => {
    for (const state of ['uninstalled', 'redacted'] as const) {
      expect(olderThanInstallation('shop/redact', at(60_000), { state, installedAt: INSTALLED })).toBeNull();
      expect(
        olderThanInstallation('shop/redact', at(-60_000), { state, installedAt: INSTALLED }),
      ).not.toBeNull();
    }
  });
});
