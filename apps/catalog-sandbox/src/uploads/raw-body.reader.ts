import type { Request } from 'express';
import { ObjectStoreError } from './object-store.error.js';

/** Reads a request's raw bytes, refusing more than `limit` (413 EntityTooLarge). */
export function readRawBody(req: Request, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new ObjectStoreError(413, 'EntityTooLarge', `The object exceeds the maximum size of ${limit} bytes.`);
  const declared = Number(req.header('content-length') ?? Number.NaN);
  if (declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      failed = true;
      reject(error);
    });
  });
}
