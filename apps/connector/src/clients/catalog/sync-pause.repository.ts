import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SyncPause } from './sync-pause.entity.js';

/** The operators' sync pauses, persisted (every replica reads them; they survive restarts). */
@Injectable()
export class SyncPauseRepository {
  constructor(@InjectRepository(SyncPause) private readonly pauses: Repository<SyncPause>) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.pauses.delete({ scope: shop })).affected ?? 0;
  }

  all(): Promise<SyncPause[]> {
    return this.pauses.find({ order: { scope: 'ASC' } });
  }

  /** Pauses `scope`; pausing again keeps the first time and takes the new reason. */
  async pause(scope: string, reason: string, at: Date): Promise<void> {
    await this.pauses
      .createQueryBuilder()
      .insert()
      .values({ scope, reason, pausedAt: at })
      .orIgnore()
      .execute();
    await this.pauses.update({ scope }, { reason });
  }

  /** Resolves to whether there was a pause to lift. */
  async resume(scope: string): Promise<boolean> {
    const result = await this.pauses.delete({ scope });
    return (result.affected ?? 0) > 0;
  }
}
