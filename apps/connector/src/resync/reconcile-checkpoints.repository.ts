import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ReconcileCheckpoint } from './reconcile-checkpoint.entity.js';

/** Why: the `reconcile_checkpoints` table's one owner: each shop's reconciliation checkpoint. */
@Injectable()
export class ReconcileCheckpointsRepository {
  constructor(
    @InjectRepository(ReconcileCheckpoint) private readonly checkpoints: Repository<ReconcileCheckpoint>,
  ) {}

  /** `shop/redact`: deletes every row of the shop; resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.checkpoints.delete({ shop })).affected ?? 0;
  }

  /** The shop's checkpoint, null before its first run. */
  of(shop: string): Promise<ReconcileCheckpoint | null> {
    return this.checkpoints.findOneBy({ shop });
  }

  /** Records a run: its checkpoint, when it ran, what it found. */
  async save(checkpoint: ReconcileCheckpoint): Promise<void> {
    await this.checkpoints.save(checkpoint);
  }
}
