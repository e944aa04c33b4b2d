import { type INestApplication, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { connectorDocument } from './connector-document.js';

/**
 * Why: `SwaggerModule.createDocument` reads the assembled application, so the document is built
 * once the app is initialised (`createConnector` calls `describe`), then served as is.
 */
@Injectable()
export class OpenApiDocument {
  private document: OpenAPIObject | null = null;

  describe(app: INestApplication): void {
    this.document = connectorDocument(app);
  }

  get(): OpenAPIObject {
    if (this.document === null) throw new Error('The OpenAPI document is built when the app is initialised');
    return this.document;
  }
}
