import { Module } from '@nestjs/common';
import { CatalogClients } from './catalog-clients.js';
import { CatalogGate } from './catalog-gate.js';

/** The catalog accounts' clients and the breaker gate (beside the stages). */
@Module({
  providers: [CatalogClients, CatalogGate],
  exports: [CatalogClients, CatalogGate],
})
export class CatalogModule {}
