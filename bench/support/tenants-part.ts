// One system's part of `tenants` (the connector's, then the naive peer's): the merchants' edits
// across the small shops, first with nothing else running, then while the big shop's whole
// catalog is synced, and from half way on with one small shop's catalog key revoked and another
// shop's app uninstalled.
import { waitFor } from './bench-stack.js';
import { latencyFigures } from './freshness-edits.js';
import { type NameReader, SteadyEdits, type TenantEdit, tenantLatencies } from './tenant-edits.js';
import type { TenantShop, TenantsStack } from './tenants-stack.js';

/** What the part needs of the system it measures. */
export interface PartSystem {
  /** Reads the system's record of a product. */
  read: NameReader;
  /** Starts syncing the big shop's whole catalog (the connector's resync, the peer's replay). */
  startBig(): Promise<void>;
  /** Records in the big shop's account of this system. */
  bigRecords(): number;
  /** The fault on the catalog's side: the shop's key for this system deactivated. */
  revokeKey(shop: TenantShop): Promise<void>;
  /** The fault on Shopify's side: the shop no longer sends this system anything. */
  uninstall(shop: TenantShop): Promise<void>;
}

export interface PartOptions {
  small: readonly TenantShop[];
  products: ReadonlyMap<string, readonly number[]>;
  bigProducts: number;
  editsPerSecond: number;
  idleEdits: number;
  revoked: TenantShop;
  uninstalled: TenantShop;
  editsTimeoutMs: number;
  bigTimeoutMs: number;
  targetP95Ms: number;
  log(line: string): void;
}

/** What the part measured. */
export interface PartRun {
  edits: TenantEdit[];
  /** Epoch ms when the big shop's sync was started; ms from then until the faults, and until its last record. */
  bigStartedEpoch: number;
  faultsAtMs: number;
  bigMs: number;
}

/** Runs the part on `system`; the edits' watcher stops at the end whatever happens. */
export async function runPart(
  stack: TenantsStack,
  system: PartSystem,
  options: PartOptions,
): Promise<PartRun> {
  const edits = new SteadyEdits(stack, options.small, options.products, options.editsPerSecond, system.read);
  try {
    options.log(
      `tenants: ${options.idleEdits} edits across ${options.small.length} shops, nothing else running`,
    );
    await edits.sendCount(options.idleEdits);
    await edits.waitSeen(() => true, options.editsTimeoutMs);

    options.log(`tenants: the big shop syncs ${options.bigProducts} products; edits go on`);
    edits.phase = 'duringResync';
    const bigStartedEpoch = Date.now();
    const t0 = performance.now();
    await system.startBig();
    edits.start();
    await waitFor(
      'the big shop to hold half its records',
      async () => system.bigRecords() >= options.bigProducts / 2,
      options.bigTimeoutMs,
    );
    options.log(
      `tenants: ${options.revoked.domain}'s catalog key revoked, ${options.uninstalled.domain} uninstalls the app`,
    );
    edits.phase = 'afterFaults';
    const faultsAtMs = performance.now() - t0;
    edits.exclude(options.uninstalled);
    await system.revokeKey(options.revoked);
    await system.uninstall(options.uninstalled);
    await waitFor(
      'the big shop to hold every record',
      async () => system.bigRecords() >= options.bigProducts,
      options.bigTimeoutMs,
    );
    const bigMs = performance.now() - t0;
    await edits.stop();
    await edits.waitSeen((e) => isHealthy(e.shop, options), options.editsTimeoutMs);
    return { edits: [...edits.edits], bigStartedEpoch, faultsAtMs, bigMs };
  } finally {
    await edits.close();
  }
}

function isHealthy(shop: TenantShop, options: Pick<PartOptions, 'revoked' | 'uninstalled'>): boolean {
  return shop !== options.revoked && shop !== options.uninstalled;
}

/** The healthy shops' edit freshness per phase, and what became of the revoked shop's edits after the fault. */
export function editFigures(
  run: PartRun,
  options: Pick<PartOptions, 'revoked' | 'uninstalled' | 'targetP95Ms'>,
) {
  const part = (phase: string) =>
    latencyFigures(
      tenantLatencies(run.edits.filter((e) => isHealthy(e.shop, options) && e.phase === phase)),
      options.targetP95Ms,
    );
  const revokedEdits = run.edits.filter((e) => e.shop === options.revoked && e.phase === 'afterFaults');
  return {
    edits: { idle: part('idle'), duringResync: part('duringResync'), afterFaults: part('afterFaults') },
    revokedShopEditsAfterFault: {
      count: revokedEdits.length,
      seen: revokedEdits.filter((e) => e.seenAt !== null).length,
    },
  };
}
