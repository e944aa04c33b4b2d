import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { AccountRegistry } from '../accounts/account.registry.js';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { contentTypeMatches, sniffImageFormat } from './image-format.js';
import { ObjectStoreError } from './object-store.error.js';
import type { Upload } from './upload.js';
import { UploadRegistry } from './upload.registry.js';
import { UploadProcessor } from './upload-processor.js';
import { UploadUrlSigner } from './upload-url.signer.js';

/**
 * The sandbox's object store and CDN. A PUT is first claimed (signature, expiry, one use,
 * Content-Type), then its bytes are checked (format by magic number) and accepted, which starts
 * processing. A failed PUT leaves the URL usable until it expires.
 */
@Injectable()
export class ObjectStoreService {
  constructor(
    @Inject(SANDBOX_CONFIG) private readonly config: CatalogSandboxConfig,
    private readonly clock: Clock,
    private readonly uploads: UploadRegistry,
    private readonly signer: UploadUrlSigner,
    private readonly processor: UploadProcessor,
    private readonly accounts: AccountRegistry,
  ) {}

  get maxBytes(): number {
    return this.config.uploads.maxBytes;
  }

  claim(fileName: string, expires: unknown, signature: unknown, contentType: string | undefined): Upload {
    const exp = typeof expires === 'string' ? expires : undefined;
    const sig = typeof signature === 'string' ? signature : undefined;
    if (!this.signer.verify(fileName, exp, sig)) {
      throw new ObjectStoreError(
        'SignatureDoesNotMatch',
        'The request signature does not match: use the uploadUrl exactly as prepare returned it.',
      );
    }
    if (this.clock.now() > Number(exp) * 1000) {
      throw ObjectStoreError.accessDenied('Request has expired: call POST /v1/upload/prepare again.');
    }
    const upload = this.uploads.byName(fileName);
    if (!upload || this.accounts.get(upload.account.id) !== upload.account) {
      throw new ObjectStoreError('NoSuchUpload', 'The upload does not exist (its account was deleted).');
    }
    if (upload.state !== 'issued') {
      throw ObjectStoreError.accessDenied('This upload URL was already used; prepare a new upload.');
    }
    if (!contentTypeMatches(contentType, upload.format)) {
      throw new ObjectStoreError(
        'InvalidContentType',
        `Content-Type must be ${upload.format} for this file, got "${contentType ?? ''}".`,
      );
    }
    upload.state = 'receiving';
    return upload;
  }

  /** Gives the URL back (a failed PUT does not use it up). */
  release(upload: Upload): void {
    if (upload.state === 'receiving') upload.state = 'issued';
  }

  /** Checks the bytes, stores them and starts processing; answers the ETag. */
  accept(upload: Upload, bytes: Buffer): string {
    const found = sniffImageFormat(bytes);
    if (found !== upload.format) {
      this.release(upload);
      throw new ObjectStoreError(
        'InvalidImage',
        found === null
          ? `The bytes are not a ${upload.format} image.`
          : `The bytes are a ${found} image, not ${upload.format}.`,
      );
    }
    upload.bytes = bytes;
    upload.receivedAt = this.clock.now();
    upload.state = 'processing';
    this.processor.schedule(upload, this.config.uploads.processingMs);
    return etag(bytes);
  }

  /** The processed image behind a finalUrl, or 404 NoSuchKey. */
  served(accountId: string, fileName: string): { upload: Upload; bytes: Buffer; etag: string } {
    const upload = this.uploads.byName(fileName);
    const alive = upload !== undefined && this.accounts.get(upload.account.id) === upload.account;
    if (
      !upload ||
      !alive ||
      upload.account.id !== accountId ||
      upload.state !== 'complete' ||
      !upload.bytes
    ) {
      throw new ObjectStoreError('NoSuchKey', 'The specified key does not exist.');
    }
    return { upload, bytes: upload.bytes, etag: etag(upload.bytes) };
  }
}

function etag(bytes: Buffer): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}
