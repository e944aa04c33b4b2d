import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  RequestMethod,
} from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { Clock } from '#lib/clock';
import { openApiViewerController } from '#lib/openapi-viewer';
import { AccountRegistry } from './accounts/account.registry.js';
import { ApiKeyGuard } from './accounts/api-key.guard.js';
import { SeedLoader } from './accounts/seed.loader.js';
import { AttributeSearchController } from './attributes/attribute-search.controller.js';
import { BulkController } from './bulk/bulk.controller.js';
import { BulkLoader } from './bulk/bulk-loader.js';
import { SANDBOX_CONFIG } from './catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from './config/catalog-sandbox.config.js';
import { DeterministicEnricher } from './enrichment/deterministic-enricher.js';
import { ENRICHER } from './enrichment/enricher.js';
import { EnrichmentRunner } from './enrichment/enrichment-runner.js';
import { EnrichmentRunsController } from './enrichment/enrichment-runs.controller.js';
import { CatalogExceptionFilter } from './http/catalog-exception.filter.js';
import { CredentialsFirstMiddleware } from './http/credentials-first.middleware.js';
import { JsonBodyMiddleware } from './http/json-body.middleware.js';
import { RequestIdMiddleware } from './http/request-id.middleware.js';
import { RouteCheckMiddleware } from './http/route-check.middleware.js';
import { PlatformIdGenerator } from './ids/platform-id.generator.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { PortalAccountsController } from './portal/portal-accounts.controller.js';
import { PortalApiKeysController } from './portal/portal-api-keys.controller.js';
import { PortalRequestsController } from './portal/portal-requests.controller.js';
import { PortalTokenGuard } from './portal/portal-token.guard.js';
import { PortalTrafficController } from './portal/portal-traffic.controller.js';
import { ProductsController } from './products/products.controller.js';
import { ProductsService } from './products/products.service.js';
import { RequestLogMiddleware } from './request-log/request-log.middleware.js';
import { PortalProductsController } from './review/portal-products.controller.js';
import { ReviewService } from './review/review.service.js';
import { ProductSearchController } from './search/product-search.controller.js';
import { TaxonomyController } from './taxonomy/taxonomy.controller.js';
import { DropAfterCommitInterceptor } from './traffic/drop-after-commit.interceptor.js';
import { TrafficPolicy } from './traffic/traffic-policy.js';
import { ObjectStoreController } from './uploads/object-store.controller.js';
import { ObjectStoreService } from './uploads/object-store.service.js';
import { UploadRegistry } from './uploads/upload.registry.js';
import { UploadProcessor } from './uploads/upload-processor.js';
import { UploadUrlSigner } from './uploads/upload-url.signer.js';
import { UploadsController } from './uploads/uploads.controller.js';
import { UploadsService } from './uploads/uploads.service.js';
import { VariantsController } from './variants/variants.controller.js';
import { VariantsService } from './variants/variants.service.js';

// ProductSearchController comes first so POST /v1/products/search is never taken for another route
// (RouteCheckMiddleware also keeps GET /v1/products/search from being read as a skuId).
const API_CONTROLLERS = [
  ProductSearchController,
  ProductsController,
  VariantsController,
  TaxonomyController,
  AttributeSearchController,
  UploadsController,
];
const PORTAL_CONTROLLERS = [
  PortalAccountsController,
  PortalApiKeysController,
  PortalRequestsController,
  PortalTrafficController,
  EnrichmentRunsController,
  PortalProductsController,
  BulkController,
];
// Raw bodies and no API key: kept out of the JSON body middleware and the request log.
const OBJECT_STORE_CONTROLLERS = [ObjectStoreController];
// The OpenAPI document and its viewer (Swagger UI at /docs).
const DOCS_CONTROLLERS = [
  OpenApiController,
  openApiViewerController({ documentUrl: '/openapi.json', title: 'Product Enrichment Catalog sandbox' }),
];

@Module({})
export class CatalogSandboxModule implements NestModule {
  static forRoot(config: CatalogSandboxConfig, clock: Clock): DynamicModule {
    return {
      module: CatalogSandboxModule,
      controllers: [
        ...API_CONTROLLERS,
        ...PORTAL_CONTROLLERS,
        ...OBJECT_STORE_CONTROLLERS,
        ...DOCS_CONTROLLERS,
      ],
      providers: [
        { provide: SANDBOX_CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
        { provide: PlatformIdGenerator, useValue: new PlatformIdGenerator() },
        { provide: APP_FILTER, useClass: CatalogExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: DropAfterCommitInterceptor },
        TrafficPolicy,
        AccountRegistry,
        SeedLoader,
        ApiKeyGuard,
        PortalTokenGuard,
        ProductsService,
        VariantsService,
        UploadRegistry,
        UploadUrlSigner,
        UploadProcessor,
        UploadsService,
        ObjectStoreService,
        { provide: ENRICHER, useClass: DeterministicEnricher },
        EnrichmentRunner,
        ReviewService,
        BulkLoader,
      ],
    };
  }

  // In order: correlation id; unknown path or wrong method (404, 405); credential (401) before
  // any body is read; the body; the request log.
  configure(consumer: MiddlewareConsumer): void {
    const everyRoute = { path: '*path', method: RequestMethod.ALL };
    consumer.apply(RequestIdMiddleware, RouteCheckMiddleware).forRoutes(everyRoute);
    consumer
      .apply(CredentialsFirstMiddleware, JsonBodyMiddleware)
      .forRoutes(...API_CONTROLLERS, ...PORTAL_CONTROLLERS);
    consumer.apply(RequestLogMiddleware).forRoutes(...API_CONTROLLERS);
  }
}
