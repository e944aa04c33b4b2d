import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';

/** The object-store path an upload's bytes are PUT to. */
export function objectStorePath(fileName: string): string {
  return `/object-store/uploads/${fileName}`;
}

/**
 * Signs and checks pre-signed object-store URLs: an HMAC-SHA256 (hex) over the method, the
 * path and the expiry (epoch seconds). The secret is `CATALOG_SANDBOX_OBJECT_STORE_SECRET`, or
 * random per boot, so URLs of an earlier run never work again.
 */
@Injectable()
export class UploadUrlSigner {
  private readonly secret: Buffer;

  constructor(@Inject(SANDBOX_CONFIG) config: CatalogSandboxConfig) {
    const configured = config.uploads.objectStoreSecret;
    this.secret = configured === null ? randomBytes(32) : Buffer.from(configured, 'utf8');
  }

  sign(fileName: string, expires: number): string {
    return createHmac('sha256', this.secret)
      .update(`PUT\n${objectStorePath(fileName)}\n${expires}`)
      .digest('hex');
  }

  /** The query string of the URL: `expires=<epoch s>&signature=<hex>`. */
  query(fileName: string, expires: number): string {
    return `expires=${expires}&signature=${this.sign(fileName, expires)}`;
  }

  verify(fileName: string, expires: string | undefined, signature: string | undefined): boolean {
    if (expires === undefined || signature === undefined) return false;
    if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
    const expected = Buffer.from(this.sign(fileName, Number(expires)), 'hex');
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
  }
}
