import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
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

  /** Per shop, when its latest reconciliation ran (scheduled or an operator's, not a dry run); absent before its first. */
  async lastRuns(shops: readonly string[]): Promise<Map<string, Date>> {
    const rows = await this.checkpoints.findBy({ shop: In([...shops]) });
    return new Map(rows.map((row) => [row.shop, row.lastRunAt]));
  }

  /** Records a run: its checkpoint, when it ran, what it found. */
  async save(checkpoint: ReconcileCheckpoint): Promise<void> {
    await this.checkpoints.save(checkpoint);
  }
}
