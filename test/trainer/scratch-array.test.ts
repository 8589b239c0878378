import { describe, expect, it } from 'vitest';
import { ScratchArray } from '../../src/trainer/scratch-array.ts';

describe('scratch array', () => {
  it('hands out views of one store that grows to the largest length asked', () => {
    let made = 0;
    const scratch = new ScratchArray((n) => {
      made++;
      return new Float32Array(n);
    });
    const a = scratch.take(8);
    a.fill(3);
    const b = scratch.take(4);
    expect(b.length).toBe(4);
    expect(b.buffer).toBe(a.buffer); // no new allocation for a smaller request
    expect(Array.from(b)).toEqual([3, 3, 3, 3]); // stale contents: callers write before reading
    const c = scratch.take(16);
    expect(c.length).toBe(16);
    expect(c.buffer).not.toBe(a.buffer);
    expect(scratch.take(16).buffer).toBe(c.buffer);
    expect(made).toBe(2);
  });
});
