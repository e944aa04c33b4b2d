import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogClients } from './catalog-clients.service.js';
import { CatalogGate } from './catalog-gate.service.js';
import { SyncPause } from './sync-pause.entity.js';
import { SyncPauseRepository } from './sync-pause.repository.js';
import { SyncPauses } from './sync-pauses.service.js';
import { SyncPausesShopData } from './sync-pauses-shop-data.service.js';

/** The catalog accounts' clients and the gate: open breakers and operators' pauses (beside the stages). */
@Module({
  imports: [TypeOrmModule.forFeature([SyncPause])],
  providers: [CatalogClients, CatalogGate, SyncPauseRepository, SyncPauses, SyncPausesShopData],
  exports: [CatalogClients, CatalogGate, SyncPauses],
})
export class CatalogModule {}
