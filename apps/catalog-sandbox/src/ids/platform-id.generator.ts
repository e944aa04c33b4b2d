/** Kinds of platform id, each with its two-letter prefix. */
export const PlatformIdKind = { SKU: 'SK', TASK: 'TK', IMAGE: 'IM', UPLOAD: 'UP' } as const;
export type PlatformIdKind = (typeof PlatformIdKind)[keyof typeof PlatformIdKind];

/**
 * Issues platform ids (two letters followed by 8 digits) unique across the whole sandbox: one
 * counter serves every kind and every account. The counter starts at a configurable point and
 * steps by a stride co-prime with 10^8, so ids look unordered (a client must not infer order
 * from them) yet never repeat within the 10^8 space.
 */
export class PlatformIdGenerator {
  private issued = 0;
  private internalCounter = 0;

  constructor(
    private readonly start = 10_000_000,
    private readonly stride = 7_368_787,
  ) {}

  next(kind: PlatformIdKind): string {
    const n = (this.start + this.issued * this.stride) % 100_000_000;
    this.issued += 1;
    if (this.issued > 100_000_000) throw new Error('platform id space exhausted');
    return `${kind}${String(n).padStart(8, '0')}`;
  }

  /** The internal record `id` (not for external use): 24 hex characters. */
  nextInternalId(): string {
    this.internalCounter += 1;
    return `6${this.internalCounter.toString(16).padStart(23, '0')}`;
  }
}
