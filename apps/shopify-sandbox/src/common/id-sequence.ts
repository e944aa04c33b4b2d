/**
 * Hands out Shopify-like numeric ids: 13-14 digits, unique within one sandbox across every
 * resource type, and exact as JavaScript numbers (far below 2^53).
 */
export class IdSequence {
  private next: number;

  constructor(start = 7_390_000_000_001) {
    this.next = start;
  }

  take(): number {
    const id = this.next;
    this.next += 1 + (id % 7);
    return id;
  }
}
