import { Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { openApiViewerController } from '#lib/openapi-viewer';
import { OpenApiController } from './openapi.controller.js';
import { OpenApiDocument } from './openapi-document.service.js';

const viewer = openApiViewerController({ documentUrl: '/openapi.json', title: 'catalog-connector' });
ApiExcludeController()(viewer); // the viewer's own files are not part of the API

/** The connector's OpenAPI document and its viewer (Swagger UI at /docs, from swagger-ui-dist). */
@Module({
  controllers: [OpenApiController, viewer],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class DocsModule {}
