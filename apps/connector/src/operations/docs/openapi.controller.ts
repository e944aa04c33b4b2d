import { Controller, Get, Header } from '@nestjs/common';
import { buildConnectorOpenApi } from './connector-openapi.js';

/** `GET /openapi.json`, open and readable from any origin (viewers, generators); Swagger UI at /docs. */
@Controller()
export class OpenApiController {
  private readonly document = buildConnectorOpenApi();

  @Get('openapi.json')
  @Header('Access-Control-Allow-Origin', '*')
  get(): Record<string, unknown> {
    return this.document;
  }
}
