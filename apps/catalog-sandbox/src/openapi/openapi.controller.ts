import { Controller, Get } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi.document.js';

/** Serves the OpenAPI document of the `/v1` and portal APIs (no authentication). */
@Controller()
export class OpenApiController {
  private readonly document = buildOpenApiDocument();

  @Get('openapi.json')
  get() {
    return this.document;
  }
}
