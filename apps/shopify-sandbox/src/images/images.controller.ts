import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';

const NOT_AN_IMAGE = Buffer.from('<!DOCTYPE html><html><body>This is not an image.</body></html>\n');

/**
 * The sandbox's CDN: serves the bytes behind the image `src`s it hands out, without
 * authentication, like Shopify's CDN. A broken URL answers 404, or 200 with bytes that are
 * not an image (still labelled `image/...`).
 */
@Controller('cdn/shops/:shop/files')
export class ImagesController {
  constructor(private readonly shops: ShopRegistry) {}

  @Get(':imageId/:name')
  serve(
    @Param('shop') domain: string,
    @Param('imageId') imageId: string,
    @Param('name') name: string,
    @Res() response: Response,
  ): void {
    const image = this.shops.byDomain(domain)?.images.get(`${imageId}/${name}`);
    if (!image || image.fault === '404') throw ShopifySandboxError.notFound();
    const bytes = image.fault === 'not-an-image' ? NOT_AN_IMAGE : image.bytes;
    response
      .status(200)
      .setHeader('Content-Type', image.mimeType)
      .setHeader('Cache-Control', 'public, max-age=31536000')
      .send(bytes);
  }
}
