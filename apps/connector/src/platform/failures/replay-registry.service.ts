import { Injectable } from '@nestjs/common';
import type { Failure } from './failure.entity.js';

/** Runs a failed job again from its stored payload (usually: enqueue it). */
export type ReplayHandler = (failure: Failure) => Promise<void>;

/**
 * How each job kind is replayed. Each kind registers its handler when its module starts, so the
 * failures module needs no knowledge of the stages. The class registering each kind is the flow
 * table's `replayBy` (queue-flow.ts), checked at boot.
 */
@Injectable()
export class ReplayRegistry {
  private readonly handlers = new Map<string, ReplayHandler>();

  register(jobKind: string, handler: ReplayHandler): void {
    if (this.handlers.has(jobKind)) throw new Error(`A replay handler for "${jobKind}" exists already`);
    this.handlers.set(jobKind, handler);
  }

  handlerFor(jobKind: string): ReplayHandler {
    const handler = this.handlers.get(jobKind);
    if (!handler) throw new Error(`No replay handler for job kind "${jobKind}"`);
    return handler;
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }
}
