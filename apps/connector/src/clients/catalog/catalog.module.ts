import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogBreakerRow } from './catalog-breaker.entity.js';
import { CatalogBreakerRepository } from './catalog-breaker.repository.js';
import { CatalogClients } from './catalog-clients.service.js';
import { CatalogGate } from './catalog-gate.service.js';
import { SharedBreakers } from './shared-breakers.service.js';
import { SyncPause } from './sync-pause.entity.js';
import { SyncPauseRepository } from './sync-pause.repository.js';
import { SyncPauses } from './sync-pauses.service.js';
import { SyncPausesShopData } from './sync-pauses-shop-data.service.js';

/** The catalog accounts' clients and the gate: open breakers and operators' pauses (beside the stages). */
@Module({
  imports: [TypeOrmModule.forFeature([SyncPause, CatalogBreakerRow])],
  providers: [
    CatalogClients,
    CatalogGate,
    CatalogBreakerRepository,
    SharedBreakers,
    SyncPauseRepository,
    SyncPauses,
    SyncPausesShopData,
  ],
  exports: [CatalogClients, CatalogGate, SyncPauses],
})
export class CatalogModule {}
