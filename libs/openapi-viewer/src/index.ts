export { openApiViewerController } from './openapi-viewer.controller.js';
export { type OpenApiViewerOptions, SwaggerUiPage, type ViewerFile } from './swagger-ui-page.js';
