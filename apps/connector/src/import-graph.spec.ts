import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importViolations, STAGES } from '../test/support/import-graph.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        files.set(relative(SRC, path).split(sep).join('/'), readFileSync(path, 'utf8'));
      }
    }
  };
  walk(SRC);
  return files;
}

describe('the connector import graph', () => {
  it('has no stage importing a later one, and nothing beside or below importing a stage', () => {
    const tree = sources();
    expect(tree.size).toBeGreaterThan(40);
    for (const stage of STAGES.slice(0, 3))
      expect([...tree.keys()].some((f) => f.startsWith(`${stage}/`))).toBe(true);
    expect(importViolations(tree)).toEqual([]);
  });

  it('catches each kind of violation', () => {
    const violations = importViolations(
      new Map([
        ['webhooks/door.ts', "import { InboxService } from '../inbox/inbox.service.js';"],
        ['sync/job.ts', "import { InboxRepository } from '../inbox/inbox.repository.js';"],
        ['shopify/client.ts', "import type { X } from '../sync/x.js';"],
        ['failures/guard.ts', "import { CatalogGate } from '../catalog/catalog-gate.js';"],
        ['queues/options.ts', "import { Failure } from '../failures/failure.entity.js';"],
        ['inbox/x.ts', "import { connectorModule } from '../connector.module.js';"],
        ['inbox/y.ts', "import { CONNECTOR_CONFIG } from '../connector.tokens.js';"],
        ['config/z.ts', "const m = await import('../webhooks/w.js');"],
        ['mapping/fields.ts', "import type { P } from '../sync/plan/p.js';"],
        ['sync/plan.ts', "import { M } from '../mapping/m.js';"],
        ['mapping/later.ts', "import { S } from '../sku-map/s.js';"],
        ['catalog/c.ts', "import { M } from '../mapping/m.js';"],
        ['sku-map/ok.ts', "import type { StoredRecord } from '../sync/plan/index.js';"],
        ['sync/steps.ts', "import { SkuMapRepository } from '../sku-map/sku-map.repository.js';"],
        ['admin/a.ts', "import { SyncEnqueuer } from '../inbox/sync-enqueuer.js';"],
        ['failures/f.ts', "import { ConnectorMetrics } from '../metrics/connector-metrics.js';"],
      ]),
    );
    expect(violations.map((v) => `${v.file}: ${v.reason}`)).toEqual([
      'webhooks/door.ts: stage webhooks imports the later stage inbox',
      'shopify/client.ts: shopify (beside the stages) imports sync',
      'failures/guard.ts: failures (beside the stages) imports catalog',
      'queues/options.ts: queues (base) imports failures',
      'inbox/x.ts: only connector.tokens.ts is importable from the top level',
      'config/z.ts: config (base) imports webhooks',
      'mapping/later.ts: stage sync imports the later stage sku-map',
      'catalog/c.ts: catalog (beside the stages) imports sync',
      'sync/steps.ts: stage sync imports the later stage sku-map',
      'failures/f.ts: failures imports metrics (operations: nothing imports them)',
    ]);
  });
});
