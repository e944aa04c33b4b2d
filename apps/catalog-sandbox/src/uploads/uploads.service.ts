import { Injectable } from '@nestjs/common';
import {
  CatalogErrorCode,
  CatalogLimits,
  type UploadPrepareResponse,
  type UploadStatusResponse,
} from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import { formatOfExtension } from './image-format.js';
import { type PrepareRequest, trackedFileName } from './prepare-body.js';
import { objectKey, type Upload } from './upload.js';
import { UploadRegistry } from './upload.registry.js';
import { objectStorePath, UploadUrlSigner } from './upload-url.signer.js';

/** POST /v1/upload/prepare and GET /v1/upload/status (spec: Media upload). */
@Injectable()
export class UploadsService {
  constructor(
    private readonly clock: Clock,
    private readonly ids: PlatformIdGenerator,
    private readonly uploads: UploadRegistry,
    private readonly signer: UploadUrlSigner,
  ) {}

  /** `baseUrl` is the sandbox's public address (config, or the request's Host). */
  prepare(account: Account, request: PrepareRequest, baseUrl: string): UploadPrepareResponse {
    const missing = request.skuIds.filter((s) => !account.products.get(s));
    if (missing.length > 0) {
      throw new CatalogApiError(
        CatalogErrorCode.PRODUCT_NOT_FOUND,
        `No product with skuId ${missing.map((s) => `"${s}"`).join(', ')}.`,
        {
          details: { skuIds: missing },
          suggestion: 'Every skuId must name a product or variant of the account.',
        },
      );
    }
    const now = this.clock.now();
    const uploadId = this.ids.next('UP');
    const fileName = trackedFileName(request.fileName, request.extension, uploadId);
    const expires = Math.floor(now / 1000) + CatalogLimits.UPLOAD_URL_TTL_SECONDS;
    const upload: Upload = {
      uploadId,
      account,
      fileName,
      originalName: request.fileName,
      format: formatOfExtension(request.extension),
      skuIds: request.skuIds,
      addToMediaGallery: request.addToMediaGallery,
      preparedAt: now,
      expires,
      state: 'issued',
    };
    this.uploads.add(upload);
    return {
      uploadUrl: `${baseUrl}${objectStorePath(fileName)}?${this.signer.query(fileName, expires)}`,
      expiresIn: CatalogLimits.UPLOAD_URL_TTL_SECONDS,
      fileName,
      finalUrl: `${baseUrl}/cdn/${encodeURIComponent(account.id)}/${fileName}`,
      uploadId,
    };
  }

  /** Exactly one of `uploadId` and `fileName`; 404 `upload_not_found` until processing ends. */
  status(account: Account, query: { uploadId?: unknown; fileName?: unknown }): UploadStatusResponse {
    const { uploadId, fileName } = query;
    const given = [uploadId, fileName].filter((v) => v !== undefined && v !== '');
    if (given.length !== 1 || typeof given[0] !== 'string') {
      throw CatalogApiError.validation(
        'Give exactly one of the query parameters "uploadId" and "fileName".',
        {
          field: 'uploadId',
        },
      );
    }
    const upload =
      typeof uploadId === 'string' && uploadId !== ''
        ? this.uploads.byUploadId(account, uploadId)
        : this.ownUploadByName(account, fileName as string);
    if (upload?.state !== 'complete') {
      throw new CatalogApiError(
        CatalogErrorCode.UPLOAD_NOT_FOUND,
        upload ? 'The upload is not processed yet.' : 'No such upload.',
        { suggestion: 'Processing is asynchronous: retry after 2 to 5 seconds, with exponential back-off.' },
      );
    }
    return {
      fileId: upload.fileId as string,
      key: objectKey(upload),
      originalName: upload.originalName,
      size: upload.bytes?.length ?? 0,
      format: upload.format,
      createdAt: upload.completedAt as number,
    };
  }

  private ownUploadByName(account: Account, fileName: string): Upload | undefined {
    const upload = this.uploads.byName(fileName);
    return upload?.account === account ? upload : undefined;
  }
}
