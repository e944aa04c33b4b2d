import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlannedWriteRow } from './planned-write.entity.js';
import { PlannedWritesRepository } from './planned-writes.repository.js';

/**
 * The `planned_writes` table and its one repository, for features other than the sync that plan
 * writes in shadow (the write-back) without importing the whole sync.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PlannedWriteRow])],
  providers: [PlannedWritesRepository],
  exports: [PlannedWritesRepository],
})
export class PlannedWritesModule {}
