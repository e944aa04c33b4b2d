import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  curlCommands,
  fileExamples,
  type MarkdownExample,
  shellExamples,
} from './support/markdown-examples.js';
import {
  freePort,
  type LocalStack,
  repoRoot,
  sleep,
  startLocalStack,
  startProcess,
} from './support/stack-process.js';

// Every shell example of every Markdown file is a complete script, run here in order against a
// fresh local stack (real processes, free ports), each in its own `bash -euo pipefail`: a command
// that fails, an answer that is not 2xx (curl --fail-with-body), or a check of its own that does
// not hold fails the build. The base URLs reach the blocks through the variables the READMEs
// document: CATALOG, SHOPIFY, CONNECTOR, RECEIVER_PORT (and BENCH_PRODUCTS keeps benchmarks small).
// A block that must not run (it starts a server until Ctrl-C, say) is preceded by
// `<!-- not run: why; covered by <path> -->`, and that path must exist.
const examples = shellExamples(repoRoot);
const runnable = examples.filter((example) => example.notRun === null);
const BLOCK_TIMEOUT_MS = 90_000;
// The catalog sandbox lets the demo key burst 8 requests, then 4 per second. A person pastes one
// block at a time; the runner waits as long for the bucket to refill before each block using it.
const CATALOG_BUCKET_REFILL_MS = 2_100;

const where = (example: MarkdownExample) => `${example.file}:${example.line}`;

describe('README examples', () => {
  let stack: LocalStack;
  let env: Record<string, string>;
  beforeAll(async () => {
    stack = await startLocalStack();
    env = {
      CATALOG: stack.catalogUrl,
      SHOPIFY: stack.shopifyUrl,
      CONNECTOR: stack.url('connector'),
      RECEIVER_PORT: String(await freePort()),
      BENCH_PRODUCTS: '2000',
    };
  });
  afterAll(() => stack?.stop());

  it('finds the shell examples of every README', () => {
    const files = new Set(examples.map((example) => example.file));
    const readmes = ['README.md', 'apps/catalog-sandbox/README.md', 'apps/shopify-sandbox/README.md'];
    // The connector's guide keeps its examples in its reference pages (apps/connector/docs/).
    const connectorPages = ['webhooks-and-lifecycle', 'sync', 'operations', 'admin-api', 'resync', 'cli'].map(
      (page) => `apps/connector/docs/${page}.md`,
    );
    for (const file of [...readmes, ...connectorPages, 'apps/connector/README.md', 'bench/README.md']) {
      expect(files).toContain(file);
    }
    expect(runnable.length).toBeGreaterThan(10);
  });

  it('skips only blocks that say why and name an existing path that covers them', () => {
    for (const example of examples.filter((e) => e.notRun !== null)) {
      const covered = /covered by (.+)$/.exec(example.notRun as string);
      expect(covered, `${where(example)}: "not run" needs "covered by <path>"`).not.toBeNull();
      for (const path of (covered?.[1] ?? '').split(/,? and |, /)) {
        expect(existsSync(join(repoRoot, path.trim())), `${where(example)}: ${path} does not exist`).toBe(
          true,
        );
      }
    }
  });

  it('checks the status of every curl call in the blocks it runs', () => {
    // --fail/--fail-with-body fail on an error answer; -w '%{http_code}' prints it for a check; "||" handles it.
    const unchecked = runnable.flatMap((example) =>
      curlCommands(example.code)
        .filter((command) => !/--fail|\s-w\s|\|\|/.test(command))
        .map((command) => `${where(example)}: ${command.slice(0, 80)}`),
    );
    expect(unchecked).toEqual([]);
  });

  it('reaches the services only through CATALOG, SHOPIFY and CONNECTOR (so they run against any stack)', () => {
    const definition = (name: string, port: number) => `${name}=\${${name}:-http://127.0.0.1:${port}}`;
    const fixed = runnable.flatMap((example) =>
      [definition('CATALOG', 4010), definition('SHOPIFY', 4020), definition('CONNECTOR', 3000)]
        .filter((text) => example.code.replaceAll(text, '').includes(`:${text.slice(-5, -1)}`))
        .map((text) => `${where(example)}: define ${text} and use it instead of the address`),
    );
    expect(fixed).toEqual([]);
  });

  it('shows files as they are (<!-- file: path --> blocks)', () => {
    for (const example of fileExamples(repoRoot)) {
      const actual = readFileSync(join(repoRoot, example.showsFile as string), 'utf8');
      if (example.language === 'json')
        expect(JSON.parse(example.code), where(example)).toEqual(JSON.parse(actual));
      else expect(`${example.code}\n`, where(example)).toBe(actual);
    }
  });

  for (const example of runnable) {
    it(
      `runs ${where(example)}`,
      async () => {
        if (/X-API-Key/.test(example.code)) await sleep(CATALOG_BUCKET_REFILL_MS);
        const run = startProcess('bash', ['-euo', 'pipefail', '-c', example.code], env);
        const timer = setTimeout(() => void run.killGroup(), BLOCK_TIMEOUT_MS);
        const { code, signal } = await run.exited;
        clearTimeout(timer);
        await run.killGroup(); // anything the block left in the background (a webhook receiver)
        expect(
          { code, signal },
          `${where(example)} failed (exit ${code ?? signal}); its output:\n${run.output().slice(-4000)}`,
        ).toEqual({ code: 0, signal: null });
      },
      BLOCK_TIMEOUT_MS + 10_000,
    );
  }
});
