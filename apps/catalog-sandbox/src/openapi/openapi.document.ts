/** The OpenAPI 3.1 document of the sandbox (filled in by the OpenAPI work). */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Product Enrichment Catalog sandbox', version: '1.0.0' },
    paths: {},
  };
}
