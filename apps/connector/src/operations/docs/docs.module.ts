import { Module } from '@nestjs/common';
import { openApiViewerController } from '#lib/openapi-viewer';
import { OpenApiController } from './openapi.controller.js';

/** The connector's OpenAPI document and its viewer (Swagger UI at /docs, from swagger-ui-dist). */
@Module({
  controllers: [
    OpenApiController,
    openApiViewerController({ documentUrl: '/openapi.json', title: 'catalog-connector' }),
  ],
})
export class DocsModule {}
