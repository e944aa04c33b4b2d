import { describe, expect, it } from 'vitest';
import { SwaggerUiPage } from './swagger-ui-page.js';

describe('SwaggerUiPage', () => {
  const viewer = new SwaggerUiPage({ documentUrl: '/openapi.json', title: 'Catalog <sandbox>' });

  it('links every asset it needs under its mount path, and escapes the title', () => {
    const html = viewer.page().body as string;
    expect(html).toContain('<title>Catalog &#60;sandbox&#62;: API documentation</title>');
    const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual([
      '/docs/swagger-ui.css',
      '/docs/favicon-32x32.png',
      '/docs/favicon-16x16.png',
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-ui-standalone-preset.js',
      '/docs/swagger-initializer.js',
    ]);
    for (const link of links) expect(viewer.asset(link.replace('/docs/', ''))).not.toBeNull();
  });

  it('points Swagger UI at the document', () => {
    expect(viewer.initializer().body).toContain('"url":"/openapi.json"');
  });

  it('serves the installed swagger-ui-dist files, and nothing else', () => {
    const bundle = viewer.asset('swagger-ui-bundle.js');
    expect(bundle?.contentType).toBe('text/javascript; charset=utf-8');
    expect(String(bundle?.body).length).toBeGreaterThan(100_000);
    for (const name of [
      'package.json',
      '../package.json',
      'index.html',
      'oauth2-redirect.html',
      'constructor',
    ]) {
      expect(viewer.asset(name)).toBeNull();
    }
  });

  it('honours another mount path', () => {
    const other = new SwaggerUiPage({ documentUrl: '/api.json', title: 'x', mountPath: '/api-docs/' });
    expect(other.mountPath).toBe('/api-docs');
    expect(other.page().body).toContain('src="/api-docs/swagger-ui-bundle.js"');
  });
});
