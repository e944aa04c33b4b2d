import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OpenApiDocument } from './openapi-document.service.js';

/** `GET /openapi.json`, open and readable from any origin (viewers, generators); Swagger UI at /docs. */
@ApiTags('docs')
@Controller()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi.json')
  @Header('Access-Control-Allow-Origin', '*')
  @ApiOperation({ operationId: 'getOpenApiDocument', summary: 'This document (Swagger UI at /docs)' })
  @ApiOkResponse({ description: 'Success', schema: { type: 'object' } })
  get(): Record<string, unknown> {
    return this.document.get() as unknown as Record<string, unknown>;
  }
}
