import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../scripts/local-stack/services.mjs';
import { type LocalStack, startLocalStack } from './support/stack-process.js';

// Every service of `npm start` that has an OpenAPI document serves it to any origin, with an
// operationId on every operation, and a Swagger UI viewer at /docs whose files all load.
const documented = services.filter((service) => service.openapiPath !== undefined);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Document = { paths: Record<string, Record<string, { operationId?: string }>> };

describe('OpenAPI documents and their viewers', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack();
  });
  afterAll(() => stack?.stop());

  it('covers at least the catalog sandbox', () => {
    expect(documented.map((service) => service.name)).toContain('catalog');
  });

  for (const service of documented) {
    describe(service.title, () => {
      let doc: Document;
      beforeAll(async () => {
        const res = await fetch(`${stack.url(service.name)}${service.openapiPath}`, {
          headers: { Origin: 'https://editor.example.org' },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        doc = (await res.json()) as Document;
      });

      it('names every operation with a unique operationId', () => {
        const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
          Object.entries(item)
            .filter(([method]) => METHODS.includes(method))
            .map(([method, operation]) => ({
              at: `${method.toUpperCase()} ${path}`,
              id: operation.operationId,
            })),
        );
        expect(operations.length).toBeGreaterThan(0);
        expect(operations.filter((operation) => !operation.id)).toEqual([]);
        const ids = operations.map((operation) => operation.id);
        expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
        for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]+$/);
      });

      it(`serves Swagger UI at ${service.docsPath}, with every file it links`, async () => {
        const base = stack.url(service.name);
        const page = await fetch(`${base}${service.docsPath}`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        const html = await page.text();
        const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1] as string);
        expect(links.some((link) => link.endsWith('swagger-ui-bundle.js'))).toBe(true);
        for (const link of links) {
          expect(link.startsWith('http')).toBe(false); // no CDN: everything from the service itself
          const asset = await fetch(new URL(link, base));
          expect(asset.status, link).toBe(200);
          expect((await asset.arrayBuffer()).byteLength, link).toBeGreaterThan(0);
          const type = asset.headers.get('content-type') ?? '';
          if (link.endsWith('.js')) expect(type).toMatch(/^text\/javascript/);
          if (link.endsWith('.css')) expect(type).toMatch(/^text\/css/);
          if (link.endsWith('.png')) expect(type).toBe('image/png');
        }
        const initializer = await (await fetch(`${base}${service.docsPath}/swagger-initializer.js`)).text();
        expect(initializer).toContain(`"url":"${service.openapiPath}"`);
        expect((await fetch(`${base}${service.docsPath}/package.json`)).status).toBe(404);
      });
    });
  }

  it('documents the catalog sandbox object-store PUT and CDN routes', async () => {
    const doc = (await (await fetch(`${stack.catalogUrl}/openapi.json`)).json()) as Document;
    expect(doc.paths['/object-store/uploads/{fileName}']?.put?.operationId).toBe('putUploadObject');
    expect(doc.paths['/cdn/{accountId}/{fileName}']?.get?.operationId).toBe('getCdnImage');
  });
});
