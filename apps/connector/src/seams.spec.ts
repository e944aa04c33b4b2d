import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../test/support/import-graph.js';
import { findSeams, type RegistryDeclaration, seamViolations, strayTokens } from '../test/support/seams.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** Every registry of the connector and the method later layers plug in with. */
const REGISTRIES: RegistryDeclaration[] = [
  { name: 'RetentionRegistry', method: 'register' },
  { name: 'ShopDataRegistry', method: 'register' },
  { name: 'ReplayRegistry', method: 'register' },
  { name: 'Observations', method: 'subscribe' },
  { name: 'DependencyHealth', method: 'register' },
  { name: 'QueueRecoveryRegistry', method: 'work' },
  { name: 'WrittenBackValues', method: 'provide' },
  { name: 'MediaDryRuns', method: 'provide' },
  { name: 'StoredSecrets', method: 'register' },
];

describe("the connector's seams", () => {
  const sources = readSources(SRC);

  it('lists every token and registry with the folders that provide and consume it', () => {
    const table = findSeams(sources, REGISTRIES).map(
      (s) =>
        `${s.kind} ${s.name}: ${s.providers.map((p) => p || '(root)').join(', ')} -> ${s.consumers.join(', ')}`,
    );
    expect(table).toEqual([
      'token SHOPIFY_FETCH: (root) -> clients/shopify, shops',
      'token SHOP_MAPPING_FILES: (root) -> mapping',
      'registry RetentionRegistry: drift, intake, operations/alerts, operations/overview, product-sync, resync, write-back -> platform/reporting',
      'registry ShopDataRegistry: clients/catalog, clients/shopify, drift, intake, media/store, operations/alerts, product-sync, resync, write-back -> platform/reporting',
      'registry ReplayRegistry: drift, media/run, operations/alerts, product-sync, resync, write-back, write-back/poll -> platform/failures',
      'registry Observations: operations/metrics, operations/overview -> platform/reporting',
      'registry DependencyHealth: operations/metrics -> platform/reporting',
      'registry QueueRecoveryRegistry: intake, media/run, operations/alerts, resync, write-back -> platform/queues',
      'registry WrittenBackValues: write-back/push -> product-sync',
      'registry MediaDryRuns: media/run -> product-sync',
      'registry StoredSecrets: operations/alerts -> shops',
    ]);
  });

  it('has each provider in a later layer than its consumers (else it is an import, not a seam)', () => {
    expect(seamViolations(findSeams(sources, REGISTRIES))).toEqual([]);
    expect(strayTokens(sources)).toEqual([]);
  });

  it('finds a seam that only hides an import', () => {
    const fake = new Map([
      ['connector.tokens.ts', "export const INBOX = Symbol('INBOX');"],
      ['intake/inbox.module.ts', '{ provide: INBOX, useExisting: InboxService }'],
      ['intake/door.ts', 'constructor(@Inject(INBOX) inbox: Inbox) {}'],
      ['product-sync/events.ts', 'export class Events { on() {} }'],
      ['platform/queues/q.ts', 'constructor(private readonly events: Events) { this.events.on(); }'],
      ['clients/x.ts', "const LOCAL = Symbol('LOCAL');"],
    ]);
    expect(seamViolations(findSeams(fake, [{ name: 'Events', method: 'on' }]))).toEqual([
      'INBOX: intake provides, intake consumes: a plain import',
      'Events: platform/queues provides, product-sync consumes: a plain import',
    ]);
    expect(strayTokens(fake)).toEqual(['clients/x.ts']);
  });
});
