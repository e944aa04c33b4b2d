import { describe, expect, it } from 'vitest';
import { PriorityQueue } from './priority-queue.js';

describe('PriorityQueue', () => {
  it('serves the highest priority first and FIFO within a priority', () => {
    const queue = new PriorityQueue<string>();
    queue.push('bulk', 'b1');
    queue.push('normal', 'n1');
    queue.push('bulk', 'b2');
    queue.push('interactive', 'i1');
    queue.push('normal', 'n2');
    queue.push('interactive', 'i2');
    expect(queue.size).toBe(6);
    expect(queue.peek()).toBe('i1');
    expect(queue.drain()).toEqual(['i1', 'i2', 'n1', 'n2', 'b1', 'b2']);
    expect(queue.shift()).toBeUndefined();
  });

  it('removes an item wherever it waits, and keeps order across many shifts', () => {
    const queue = new PriorityQueue<number>();
    for (let i = 0; i < 200; i++) queue.push('normal', i);
    expect(queue.remove(150)).toBe(true);
    expect(queue.remove(999)).toBe(false);
    const served: number[] = [];
    for (let i = 0; i < 100; i++) served.push(queue.shift() as number);
    queue.push('normal', 1000);
    served.push(...queue.drain());
    expect(served).toEqual([...Array.from({ length: 200 }, (_, i) => i).filter((i) => i !== 150), 1000]);
  });
});
