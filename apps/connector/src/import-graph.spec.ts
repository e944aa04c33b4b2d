import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentViolations, roleViolations, shopifyDocuments } from '../test/support/file-roles.js';
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

describe("the connector's files: roles and Shopify documents", () => {
  const tree = readSources(SRC);

  it('has every file say its role: repositories, jobs, controllers and every other injectable', () => {
    expect(roleViolations(tree, [])).toEqual([]);
  });

  // No exception: the write-back's reads and mutations (`write-back-calls.ts`, sent on the
  // write-back's own pacing) and the media reads (`media-reads.ts`) have their functions there too.
  it('runs each Shopify document from one function of clients/shopify', () => {
    expect(shopifyDocuments(tree)).toContain('PRODUCT_IDS_QUERY');
    expect(shopifyDocuments(tree)).toContain('WRITE_BACK_VARIANTS_QUERY');
    expect(documentViolations(tree)).toEqual([]);
  });

  it('catches a file whose name hides its role', () => {
    const fake = new Map([
      [
        'a/rows.ts',
        '@Injectable()\nexport class Rows { constructor(@InjectRepository(R) r: Repository<R>) {} }',
      ],
      ['a/work.ts', "@Processor('work')\nexport class Work {}"],
      ['a/door.service.ts', "@Controller('door')\nexport class Door {}"],
      ['a/helper.ts', '@Injectable()\nexport class Helper {}'],
      ['a/old.ts', '@Injectable()\nexport class Old {}'],
      ['a/fine.service.ts', '@Injectable()\nexport class Fine {}'],
      ['a/renamed.service.ts', '@Injectable()\nexport class Renamed {}'],
      ['a/note.ts', '/** Each job is a `@Processor(name)` class. */'],
    ]);
    expect(roleViolations(fake, ['a/old.ts', 'a/renamed.service.ts', 'a/gone.ts'])).toEqual([
      'a/rows.ts: injects a TypeORM repository, not a *.repository.ts',
      'a/rows.ts: an @Injectable() whose file name says no role (repository, service, controller, job, guard, interceptor, filter, pipe, client, reader, command, listener)',
      'a/work.ts: a @Processor, not a *.job.ts',
      'a/door.service.ts: a @Controller, not a *.controller.ts',
      'a/helper.ts: an @Injectable() whose file name says no role (repository, service, controller, job, guard, interceptor, filter, pipe, client, reader, command, listener)',
      'a/renamed.service.ts: listed as an exception, but needs none',
      'a/gone.ts: listed as an exception, but needs none',
    ]);
  });

  it('catches a document run outside clients/shopify, or from two places', () => {
    const fake = new Map([
      ['clients/shopify/documents/ping.query.ts', "export const PING_QUERY = 'query Ping { shop { id } }';"],
      [
        'clients/shopify/documents/pong.query.ts',
        'export const PONG_QUERY = /* GraphQL */ `\n  query Pong { shop { id } }`;',
      ],
      ['clients/shopify/ping.ts', 'admin.request(PING_QUERY, {}, 1)'],
      ['clients/shopify/ping-again.ts', 'admin.request(PING_QUERY, {}, 1)'],
      ['media/pong.ts', 'admin.request(PONG_QUERY, {}, 1)'],
      ['media/says.ts', '/** Runs `PONG_QUERY` through `pong`. */'],
      ['drift/pong.ts', 'admin.request(PONG_QUERY, {}, 1)'],
    ]);
    expect(documentViolations(fake, { PONG_QUERY: ['drift/pong.ts', 'intake/gone.ts'] })).toEqual([
      'PING_QUERY: run by clients/shopify/ping.ts, clients/shopify/ping-again.ts, not one function',
      'PONG_QUERY: used by media/pong.ts, outside clients/shopify',
      'PONG_QUERY: intake/gone.ts is listed as an exception, but needs none',
    ]);
  });
});
