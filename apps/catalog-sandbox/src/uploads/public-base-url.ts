import type { Request } from 'express';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';

/**
 * The address URLs handed out start with: `CATALOG_SANDBOX_PUBLIC_URL` when set, otherwise the
 * scheme and Host of the request (so a sandbox on a random port hands out working URLs).
 */
export function publicBaseUrl(config: CatalogSandboxConfig, req: Request): string {
  const configured = config.http.publicUrl;
  if (configured !== null) return configured.replace(/\/+$/, '');
  const host = req.get('host') ?? `127.0.0.1:${config.http.port}`;
  return `${req.protocol}://${host}`;
}
