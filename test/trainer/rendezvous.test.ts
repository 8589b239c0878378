/**
 * Where one method's seeds meet inside an iteration (src/trainer/rendezvous.ts): a round meets once
 * every armed participant has come or left, in participant order whatever the order of arrival; a
 * participant that leaves is not waited for; a failed meeting fails every participant of its round;
 * unarmed, a call meets alone at once.
 */
import { describe, expect, it } from 'vitest';
import { Rendezvous } from '../../src/trainer/rendezvous.ts';

/** A rendezvous whose meeting doubles each item and notes the rounds' items. */
function doubling() {
  const rounds: number[][] = [];
  const r = new Rendezvous<number, number>(async (items) => {
    rounds.push(items);
    return items.map((x) => 2 * x);
  });
  return { r, rounds };
}

describe('rendezvous', () => {
  it('meets once all armed participants came, in participant order, each getting its own answer', async () => {
    const { r, rounds } = doubling();
    r.arm(3);
    const late = r.join(2, 30);
    const first = r.join(0, 10);
    expect(rounds).toEqual([]); // still waiting for participant 1
    const middle = r.join(1, 20);
    expect(await Promise.all([first, middle, late])).toEqual([20, 40, 60]);
    expect(rounds).toEqual([[10, 20, 30]]);
    expect(r.rounds).toBe(1);
    expect(r.armed).toBe(false);
  });

  it('does not wait for a participant that leaves, and ignores a leave after coming', async () => {
    const { r, rounds } = doubling();
    r.arm(3);
    const a = r.join(0, 1);
    r.leave(0); // came already: still expected to count
    const b = r.join(2, 3);
    expect(rounds).toEqual([]);
    r.leave(1);
    expect(await Promise.all([a, b])).toEqual([2, 6]);
    expect(rounds).toEqual([[1, 3]]);
    r.leave(2); // after the round: nothing happens
    expect(r.rounds).toBe(1);
  });

  it('fails every participant of a round whose meeting fails', async () => {
    const r = new Rendezvous<number, number>(async () => {
      throw new Error('device lost');
    });
    r.arm(2);
    const results = await Promise.allSettled([r.join(0, 1), r.join(1, 2)]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/device lost/);
  });

  it('meets alone at once where not armed, and refuses to be armed mid-round', async () => {
    const { r, rounds } = doubling();
    expect(await r.join(5, 7)).toBe(14);
    expect(rounds).toEqual([[7]]);
    r.arm(2);
    void r.join(0, 1);
    expect(() => r.arm(2)).toThrow(/armed while a round is in progress/);
    r.leave(1);
  });
});
