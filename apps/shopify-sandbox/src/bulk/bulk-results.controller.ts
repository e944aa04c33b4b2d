import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import { BulkOperationService } from './bulk-operation.service.js';

/**
 * Serves bulk results behind the signed links of `BulkOperation.url` / `partialDataUrl`,
 * without an access token, like Shopify's storage: a tampered link answers 403, an expired one
 * 400 (`ExpiredToken`), both in the storage's XML error shape.
 */
@Controller('bulk-operation-outputs')
export class BulkResultsController {
  constructor(
    private readonly shops: ShopRegistry,
    private readonly bulk: BulkOperationService,
  ) {}

  @Get(':shop/:name')
  serve(
    @Param('shop') domain: string,
    @Param('name') name: string,
    @Query('Expires') expires: string | undefined,
    @Query('Signature') signature: string | undefined,
    @Res() response: Response,
  ): void {
    const shop = this.shops.byDomain(domain);
    if (!shop) throw ShopifySandboxError.notFound();
    const found = this.bulk.file(shop, name, expires ?? '', signature ?? '');
    switch (found.kind) {
      case 'file':
        response
          .status(200)
          .setHeader('Content-Type', 'application/jsonl')
          .setHeader('Content-Disposition', `attachment; filename="bulk-${found.id}.jsonl"`)
          .send(found.bytes);
        return;
      case 'bad-signature':
        storageError(response, 403, 'SignatureDoesNotMatch', 'Access denied.');
        return;
      case 'expired':
        storageError(
          response,
          400,
          'ExpiredToken',
          'The provided token has expired.',
          `Request signature expired at: ${new Date(found.expiredAt).toISOString().replace('.000Z', '+00:00')}`,
        );
        return;
      default:
        storageError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
    }
  }
}

function storageError(
  response: Response,
  status: number,
  code: string,
  message: string,
  details?: string,
): void {
  const extra = details ? `<Details>${details}</Details>` : '';
  response
    .status(status)
    .setHeader('Content-Type', 'application/xml; charset=UTF-8')
    .send(
      `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message>${extra}</Error>`,
    );
}
