import { Injectable } from '@nestjs/common';
import type { Failure } from './failure.entity.js';

/** Runs a failed job again from its stored payload (usually: enqueue it). */
export type ReplayHandler = (failure: Failure) => Promise<void>;

/**
 * The subject a kind's job guard records its failures under, from the job's payload: a failure
 * BullMQ decides itself (a stall) is recorded under it too, so the subject's next success
 * resolves it as it resolves the guard's own.
 */
export type SubjectOf = (payload: Record<string, unknown>) => string | undefined;

/**
 * How each job kind is replayed. Each kind registers its handler when its module starts, so the
 * failures module needs no knowledge of the stages. The class registering each kind is the flow
 * table's `replayBy` (queue-flow.ts), checked at boot.
 */
@Injectable()
export class ReplayRegistry {
  private readonly handlers = new Map<string, ReplayHandler>();
  private readonly subjects = new Map<string, SubjectOf>();

  register(jobKind: string, handler: ReplayHandler, subjectOf?: SubjectOf): void {
    if (this.handlers.has(jobKind)) throw new Error(`A replay handler for "${jobKind}" exists already`);
    this.handlers.set(jobKind, handler);
    if (subjectOf !== undefined) this.subjects.set(jobKind, subjectOf);
  }

  /** The subject key the kind's guard uses for this payload, when the kind told it. */
  subjectOf(jobKind: string, payload: Record<string, unknown>): string | undefined {
    return this.subjects.get(jobKind)?.(payload);
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
