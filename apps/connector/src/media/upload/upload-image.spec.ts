import { describe, expect, it } from 'vitest';
import { CatalogClientError } from '#lib/catalog-client';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import { MediaError } from '../model/media-error.js';
import { uploadError, uploadFileName } from './upload-image.js';

const image = (url: string): FetchedImage => ({
  url,
  finalUrl: url,
  bytes: Buffer.alloc(0),
  format: 'image/webp',
  extension: 'webp',
  contentHash: 'abcdef0123456789'.repeat(4),
  size: 0,
});

const clientError = (code: string, status: number | null, retryable: boolean, message = 'failed') =>
  new CatalogClientError({
    message,
    errorCode: null,
    code,
    status,
    retryable,
    method: 'PUT',
    path: '(object store)',
  });

describe('uploadFileName', () => {
  it('keeps a URL-safe base name, adds a short hash and the real format’s extension', () => {
    expect(uploadFileName(image('https://cdn.shopify.com/s/files/1/Front%20View.PNG?v=3'))).toBe(
      'Front-View-abcdef012345.webp',
    );
    expect(uploadFileName(image('https://cdn.shopify.com/'))).toBe('image-abcdef012345.webp');
    expect(uploadFileName(image(`https://cdn.shopify.com/${'x'.repeat(200)}.jpg`))).toHaveLength(60 + 13 + 5);
  });
});

describe('uploadError', () => {
  it('maps the client’s upload failures to typed media errors', () => {
    const cases: Array<[CatalogClientError, string, boolean]> = [
      [
        clientError('upload_failed', null, true, 'Upload failed: upload URL expired on every attempt'),
        'upload_url_expired',
        true,
      ],
      [clientError('upload_failed', 400, false), 'upload_refused', false],
      [clientError('upload_failed', 413, false), 'upload_refused', false],
      [clientError('upload_failed', 503, true), 'catalog_unavailable', true],
      [
        clientError('upload_failed', null, true, 'Upload failed: object store answered nothing'),
        'catalog_unavailable',
        true,
      ],
      [clientError('upload_processing_timeout', null, true), 'upload_processing_timeout', true],
      [clientError('circuit_open', null, false), 'catalog_unavailable', true],
      [clientError('validation_error', 400, false), 'catalog_rejected', false],
      [clientError('rate_limit_exceeded', 429, true), 'catalog_unavailable', true],
      [clientError('forbidden', 403, false), 'catalog_rejected', false],
    ];
    for (const [error, code, retryable] of cases) {
      const mapped = uploadError(error, 'a.png');
      expect(mapped, `${error.code} ${error.status}`).toBeInstanceOf(MediaError);
      expect(mapped, `${error.code} ${error.status}`).toMatchObject({ code, retryable });
    }
  });

  it('returns anything else unchanged (a bug, to be thrown)', () => {
    const bug = new TypeError('x is undefined');
    expect(uploadError(bug, 'a.png')).toBe(bug);
  });
});
