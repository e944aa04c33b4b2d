import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ReplayRegistry } from '../failures/replay-registry.service.js';
import { HOUSEKEEPING } from '../reporting/housekeeping.js';
import { RetentionRegistry } from '../reporting/retention-registry.service.js';
import { ShopDataRegistry } from '../reporting/shop-data-registry.service.js';
import { QUEUE_FLOW } from './queue-flow.js';
import { registrationProblems } from './registration-problems.js';

/**
 * Why: the replay handlers, the pruned tables and the shop-data owners are handed to their
 * registries by each feature at module init, where no reader finds them all. They are listed in
 * the flow table (`replayBy`) and in `HOUSEKEEPING`; this fails the boot, once every module has
 * started (so every feature has registered), when the registries hold another set.
 */
@Injectable()
export class RegistrationsCheck implements OnApplicationBootstrap {
  constructor(
    private readonly replays: ReplayRegistry,
    private readonly retention: RetentionRegistry,
    private readonly shopData: ShopDataRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const problems = registrationProblems(QUEUE_FLOW, HOUSEKEEPING, {
      replayKinds: this.replays.kinds,
      pruned: this.retention.all().map((table) => table.name),
      redacted: this.shopData.groups(),
    });
    if (problems.length > 0)
      throw new Error(
        `The registrations do not match the flow table (queue-flow.ts) and housekeeping.ts: ${problems.join('; ')}`,
      );
  }
}
