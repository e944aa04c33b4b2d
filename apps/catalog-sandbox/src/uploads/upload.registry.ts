import { Injectable } from '@nestjs/common';
import type { Account } from '../accounts/account.js';
import type { Upload } from './upload.js';

/**
 * Every prepared upload of the sandbox, by account and uploadId, and by tracked file name (the
 * object store and the CDN know only the name). Uploads of a deleted account linger until the
 * sandbox restarts, but are never found through a new account of the same id.
 */
@Injectable()
export class UploadRegistry {
  private readonly byAccount = new Map<string, Map<string, Upload>>();
  private readonly byFileName = new Map<string, Upload>();

  add(upload: Upload): void {
    let uploads = this.byAccount.get(upload.account.id);
    if (!uploads) {
      uploads = new Map();
      this.byAccount.set(upload.account.id, uploads);
    }
    uploads.set(upload.uploadId, upload);
    this.byFileName.set(upload.fileName, upload);
  }

  byUploadId(account: Account, uploadId: string): Upload | undefined {
    const upload = this.byAccount.get(account.id)?.get(uploadId);
    return upload?.account === account ? upload : undefined;
  }

  byName(fileName: string): Upload | undefined {
    return this.byFileName.get(fileName);
  }

  /** The account's uploads, oldest first. */
  list(account: Account): Upload[] {
    return [...(this.byAccount.get(account.id)?.values() ?? [])].filter((u) => u.account === account);
  }
}
