import { Controller, Get, Header } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi.document.js';

/**
 * Serves the OpenAPI document (no authentication), readable from any origin so that viewers and
 * generators on other hosts can load it. The viewer itself is at /docs.
 */
@Controller()
export class OpenApiController {
  private readonly document = buildOpenApiDocument();

  @Get('openapi.json')
  @Header('Access-Control-Allow-Origin', '*')
  get() {
    return this.document;
  }
}
