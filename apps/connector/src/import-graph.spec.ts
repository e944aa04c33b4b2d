import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderCycles, importViolations, LAYERS, readSources } from '../test/support/import-graph.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

describe('the connector import graph', () => {
  it('follows the layer order, with no folder cycle at any depth', () => {
    const tree = readSources(SRC);
    expect(tree.size).toBeGreaterThan(100);
    for (const room of LAYERS.flat().filter((r) => r !== 'shops'))
      expect(
        [...tree.keys()].some((f) => f.startsWith(`${room}/`)),
        room,
      ).toBe(true);
    expect(importViolations(tree)).toEqual([]);
  });

  it('catches each kind of violation', () => {
    const violations = importViolations(
      new Map([
        ['intake/door.ts', "import { S } from '../product-sync/s.js';"],
        ['product-sync/job.ts', "import { I } from '../intake/inbox.repository.js';"],
        ['clients/shopify/client.ts', "import type { X } from '../../mapping/x.js';"],
        ['platform/failures/f.ts', "import { M } from '../../operations/metrics/m.js';"],
        ['media/m.ts', "import { W } from '../write-back/w.js';"],
        ['intake/x.ts', "import { connectorModule } from '../connector.module.js';"],
        ['intake/y.ts', "import { CONNECTOR_CONFIG } from '../connector.tokens.js';"],
        ['kitchen/k.ts', "import { P } from '../platform/p.js';"],
        ['operations/admin/a.ts', "import { R } from '../../resync/r.js';"],
        ['write-back/poll/p.ts', "import { Q } from '../push/q.js';"],
        ['write-back/push/q.ts', "import { P } from '../poll/p.js';"],
        ['media/plan/d.ts', "import { E } from '../media-error.js';"],
      ]),
    );
    expect(violations.map((v) => `${v.file}: ${v.reason}`)).toEqual([
      'intake/door.ts: intake imports product-sync, a later layer',
      'clients/shopify/client.ts: clients imports mapping, a later layer',
      'platform/failures/f.ts: platform imports operations, a later layer',
      'media/m.ts: media imports its peer write-back (same layer)',
      'intake/x.ts: only connector.tokens.ts is importable from the top level',
      'kitchen/k.ts: kitchen is not a room of the layout',
      'intake: folder cycle',
      'write-back/poll: folder cycle',
    ]);
  });

  it('names the folders of a cycle, however deep', () => {
    const cycles = folderCycles(
      new Map([
        ['a/b/c/x.ts', "import { Y } from '../../d/y.js';"],
        ['a/d/y.ts', "import { Z } from '../b/z.js';"],
        ['a/b/z.ts', "import { X } from './c/x.js';"],
      ]),
    );
    expect(cycles).toEqual([['a/b', 'a/b/c', 'a/d']]);
  });
});
