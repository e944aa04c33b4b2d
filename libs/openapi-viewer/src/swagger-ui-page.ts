import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What a service's viewer shows: its OpenAPI document's URL, under a title. */
export interface OpenApiViewerOptions {
  /** URL (usually a path) of the OpenAPI document, e.g. `/openapi.json`. */
  documentUrl: string;
  /** Page title, e.g. the service's name. */
  title: string;
  /** Where the viewer is mounted; `/docs` by default. */
  mountPath?: string;
}

/** Files of swagger-ui-dist the page uses, with their media types; nothing else is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui.css.map': 'application/json',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-bundle.js.map': 'application/json',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js.map': 'application/json',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** A file served by the viewer. */
export interface ViewerFile {
  contentType: string;
  body: string | Buffer;
}

/**
 * Swagger UI, served from the installed `swagger-ui-dist` (no CDN: it works offline and behind a
 * firewall), for one OpenAPI document. Only a fixed list of files is ever read.
 */
export class SwaggerUiPage {
  readonly mountPath: string;
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly options: OpenApiViewerOptions) {
    this.mountPath = (options.mountPath ?? '/docs').replace(/\/$/, '');
  }

  /** The HTML page. Asset URLs are absolute, so `/docs` and `/docs/` both work. */
  page(): ViewerFile {
    const base = this.mountPath;
    const title = escapeHtml(this.options.title);
    const body = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>${title}: API documentation</title>
    <link rel="stylesheet" type="text/css" href="${base}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${base}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${base}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${base}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${base}/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="${base}/swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;
    return { contentType: 'text/html; charset=utf-8', body };
  }

  /** The script that starts Swagger UI on the document (a file, not inline: CSP-friendly). */
  initializer(): ViewerFile {
    const config = {
      url: this.options.documentUrl,
      dom_id: '#swagger-ui',
      deepLinking: true,
      layout: 'StandaloneLayout',
    };
    const body = `window.onload = function () {
  window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(config)}, {
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  }));
};
`;
    return { contentType: 'text/javascript; charset=utf-8', body };
  }

  /** One of the listed swagger-ui-dist files, or null for any other name. */
  asset(name: string): ViewerFile | null {
    if (name === 'swagger-initializer.js') return this.initializer();
    const contentType = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (contentType === undefined) return null;
    let body = this.cache.get(name);
    if (body === undefined) {
      body = readFileSync(join(distDir, name));
      this.cache.set(name, body);
    }
    return { contentType, body };
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
