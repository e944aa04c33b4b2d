/**
 * How urgent a call is. Queued calls are served highest priority first and, within a priority,
 * first come first served: interactive work (an attribute sync a person waits for) passes normal
 * work, which passes bulk work (image status polls, backfills).
 */
export type Priority = 'interactive' | 'normal' | 'bulk';

/** Highest first. */
export const PRIORITIES: readonly Priority[] = ['interactive', 'normal', 'bulk'];

/** A FIFO per priority; `shift` takes from the highest non-empty one. All operations O(1) amortised. */
export class PriorityQueue<T> {
  private readonly lanes: Record<Priority, Lane<T>> = {
    interactive: new Lane<T>(),
    normal: new Lane<T>(),
    bulk: new Lane<T>(),
  };

  push(priority: Priority, item: T): void {
    this.lanes[priority].push(item);
  }

  peek(): T | undefined {
    return this.firstLane()?.peek();
  }

  shift(): T | undefined {
    return this.firstLane()?.shift();
  }

  /** Removes one item wherever it is (e.g. a cancelled wait). */
  remove(item: T): boolean {
    return PRIORITIES.some((p) => this.lanes[p].remove(item));
  }

  /** Empties the queue, returning what it held in service order. */
  drain(): T[] {
    const all: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) all.push(item);
    return all;
  }

  get size(): number {
    return PRIORITIES.reduce((n, p) => n + this.lanes[p].size, 0);
  }

  private firstLane(): Lane<T> | undefined {
    for (const p of PRIORITIES) if (this.lanes[p].size > 0) return this.lanes[p];
    return undefined;
  }
}

class Lane<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.size > 0 ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.items[this.head];
    this.head += 1;
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  remove(item: T): boolean {
    const index = this.items.indexOf(item, this.head);
    if (index === -1) return false;
    this.items.splice(index, 1);
    return true;
  }
}
