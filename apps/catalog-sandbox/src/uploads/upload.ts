import type { Account } from '../accounts/account.js';
import type { ImageFormat } from './image-format.js';

/**
 * Where an upload is (spec: Media upload): the URL is issued; the bytes are being received
 * (one PUT at a time); processing; complete. An issued URL past its expiry is "expired" by the
 * clock, without a state change.
 */
export type UploadState = 'issued' | 'receiving' | 'processing' | 'complete';

/** What happened to one of the prepare call's skuIds when processing ended. */
export interface UploadApplication {
  skuId: string;
  result: 'added' | 'already_present' | 'not_added' | 'gallery_full' | 'record_deleted';
}

/** One prepared upload and, once received, its bytes. */
export interface Upload {
  uploadId: string;
  account: Account;
  /** The unique tracked name (the object key's last segment). */
  fileName: string;
  originalName: string;
  format: ImageFormat;
  skuIds: string[];
  addToMediaGallery: boolean;
  preparedAt: number;
  /** Epoch seconds: the upload URL's expiry. */
  expires: number;
  state: UploadState;
  bytes?: Buffer;
  receivedAt?: number;
  /** Set when processing ends. */
  fileId?: string;
  completedAt?: number;
  applied?: UploadApplication[];
}

/** The object key, as GET /v1/upload/status reports it. */
export function objectKey(upload: Upload): string {
  return `${upload.account.id}/${upload.fileName}`;
}
