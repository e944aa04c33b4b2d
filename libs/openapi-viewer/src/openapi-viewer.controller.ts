import { Controller, Get, NotFoundException, Param, Res, type Type } from '@nestjs/common';
import type { Response } from 'express';
import { type OpenApiViewerOptions, SwaggerUiPage, type ViewerFile } from './swagger-ui-page.js';

/**
 * A Nest controller serving Swagger UI for a service's OpenAPI document at `/docs` (or
 * `mountPath`): add it to the app module's controllers. Unknown files get the app's own 404.
 */
export function openApiViewerController(options: OpenApiViewerOptions): Type<unknown> {
  const viewer = new SwaggerUiPage(options);
  const send = (res: Response, file: ViewerFile) => {
    res
      .status(200)
      .setHeader('Content-Type', file.contentType)
      .setHeader('Cache-Control', 'no-cache')
      .end(file.body);
  };

  @Controller(viewer.mountPath.replace(/^\//, ''))
  class OpenApiViewerController {
    @Get()
    page(@Res() res: Response): void {
      send(res, viewer.page());
    }

    @Get(':file')
    file(@Param('file') name: string, @Res() res: Response): void {
      const file = viewer.asset(name);
      if (file === null) throw new NotFoundException(`No file ${name} in the API documentation viewer`);
      send(res, file);
    }
  }
  return OpenApiViewerController;
}
