import { Controller, Get, Param, Put, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { readRawBody } from '#lib/app-shell';
import { ObjectStoreError, ObjectStoreErrorFilter } from './object-store.error.js';
import { ObjectStoreService } from './object-store.service.js';

/**
 * The object store and CDN the upload URLs point at. No API key: a pre-signed URL is the
 * authorization (spec: "no service authentication"). Bodies are raw bytes, never JSON; errors
 * are small XML documents, as an object store answers.
 */
@Controller()
@UseFilters(ObjectStoreErrorFilter)
export class ObjectStoreController {
  constructor(private readonly store: ObjectStoreService) {}

  @Put('object-store/uploads/:fileName')
  async put(
    @Param('fileName') fileName: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const upload = this.store.claim(fileName, expires, signature, req.header('content-type'));
    let bytes: Buffer;
    try {
      bytes = await readRawBody(
        req,
        this.store.maxBytes,
        () =>
          new ObjectStoreError(
            'EntityTooLarge',
            `The object exceeds the maximum size of ${this.store.maxBytes} bytes.`,
          ),
      );
    } catch (error) {
      this.store.release(upload);
      throw error;
    }
    const etag = this.store.accept(upload, bytes);
    res.status(200).setHeader('ETag', etag).end();
  }

  @Get('cdn/:accountId/:fileName')
  cdn(
    @Param('accountId') accountId: string,
    @Param('fileName') fileName: string,
    @Res() res: Response,
  ): void {
    const { upload, bytes, etag } = this.store.served(accountId, fileName);
    res
      .status(200)
      .setHeader('Content-Type', upload.format)
      .setHeader('Content-Length', String(bytes.length))
      .setHeader('ETag', etag)
      .setHeader('Cache-Control', 'public, max-age=31536000, immutable')
      .end(bytes);
  }
}
