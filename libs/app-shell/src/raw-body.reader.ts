import type { Request } from 'express';

/**
 * Reads a request's raw bytes, failing with `tooLarge()` past `limit` bytes (whether declared by
 * Content-Length or seen while streaming). Shared by the apps' JSON body middleware and the catalog sandbox's object store.
 */
export function readRawBody(req: Request, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const declared = Number(req.header('content-length') ?? Number.NaN);
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
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
