/**
 * The detector settings on hand-made batches (docs/maths.md §6): what Φ outputs, what the methods see,
 * and what that does to BEACON's advantages. The examples are the worked examples of §6.
 */
import { describe, expect, it } from 'vitest';
import { addFalseAlarms, delayMilestones, detectorView, selectDetector, strideMilestones } from '../../src/advantages/detector-view.ts';
import type { AdvantageBatch } from '../../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { Rng } from '../../src/prng.ts';

const OFF = { milestoneFalseAlarms: 0, milestoneDelay: 0, milestoneStride: 1 };
/** Two runs of one group: 6 steps with milestones at steps 1, 3, 5 (solved); 4 steps with one at step 1 (failed). */
const runOffsets = Int32Array.from([0, 6, 10]);
const phi = Uint8Array.from([0, 1, 0, 1, 0, 1, /* run 2 */ 0, 1, 0, 0]);
const list = (a: Uint8Array) => Array.from(a);

describe('detector settings on Φ’s output', () => {
  it('leaves Φ’s output as it is at the defaults, drawing nothing', () => {
    const rng = new Rng(3);
    const before = rng.state();
    expect(detectorView(runOffsets, phi, OFF, rng)).toBe(phi);
    expect(rng.state()).toEqual(before);
  });

  it('milestoneStride k keeps every k-th fire of each run', () => {
    expect(list(strideMilestones(runOffsets, phi, 2))).toEqual([0, 0, 0, 1, 0, 0, /**/ 0, 0, 0, 0]);
    expect(list(strideMilestones(runOffsets, phi, 3))).toEqual([0, 0, 0, 0, 0, 1, /**/ 0, 0, 0, 0]);
    // Counting restarts in every run.
    expect(list(strideMilestones(Int32Array.from([0, 2, 4]), Uint8Array.from([1, 1, 1, 1]), 2))).toEqual([0, 1, 0, 1]);
  });

  it('milestoneDelay d fires d steps late, at the run’s last step if it ends first', () => {
    expect(list(delayMilestones(runOffsets, phi, 1))).toEqual([0, 0, 1, 0, 1, 1, /**/ 0, 0, 1, 0]);
    // d = 2: the fires of steps 3 and 5 both land on the last step (one flag); run 2's stays in run 2.
    expect(list(delayMilestones(runOffsets, phi, 2))).toEqual([0, 0, 0, 1, 0, 1, /**/ 0, 0, 0, 1]);
    expect(list(delayMilestones(runOffsets, phi, 10))).toEqual([0, 0, 0, 0, 0, 1, /**/ 0, 0, 0, 1]);
  });

  it('milestoneFalseAlarms p fires on silent steps only, one draw per step from its own stream', () => {
    const all = addFalseAlarms(phi, 1, new Rng(1));
    expect(list(all)).toEqual(new Array(10).fill(1));
    const none = addFalseAlarms(phi, 0, new Rng(1));
    expect(list(none)).toEqual(list(phi));
    // p = 0.3 over many steps: about 30% of the silent steps fire, and the same stream gives the same fires.
    const silent = new Uint8Array(20000);
    const a = addFalseAlarms(silent, 0.3, new Rng(9));
    expect(a.reduce((s, x) => s + x, 0) / silent.length).toBeCloseTo(0.3, 1);
    expect(list(addFalseAlarms(silent, 0.3, new Rng(9)))).toEqual(list(a));
    // One draw per step whatever Φ says: the stream ends at the same position for any Φ.
    const r1 = new Rng(5);
    const r2 = new Rng(5);
    addFalseAlarms(phi, 0.3, r1);
    addFalseAlarms(new Uint8Array(phi.length), 0.3, r2);
    expect(r1.state()).toEqual(r2.state());
    // Never removes a fire.
    const withAlarms = addFalseAlarms(phi, 0.3, new Rng(2));
    for (let t = 0; t < phi.length; t++) if (phi[t]) expect(withAlarms[t], `step ${t}`).toBe(1);
  });

  it('applies stride, then delay, then false alarms', () => {
    const view = detectorView(runOffsets, phi, { milestoneFalseAlarms: 0, milestoneDelay: 1, milestoneStride: 2 }, null);
    expect(list(view)).toEqual([0, 0, 0, 0, 1, 0, /**/ 0, 0, 0, 0]);
    expect(() => detectorView(runOffsets, phi, { ...OFF, milestoneFalseAlarms: 0.1 }, null)).toThrow(/detector stream/);
  });

  it('the loose detector replaces Φ; the fine detector adds its transitions to it', () => {
    const loose = Uint8Array.from([1, 1, 1, 1, 0, 1, /**/ 1, 1, 1, 1]);
    const fine = Uint8Array.from([1, 0, 1, 0, 0, 0, /**/ 1, 0, 0, 0]);
    expect(list(selectDetector(phi, { loose }))).toEqual(list(loose));
    expect(list(selectDetector(phi, { fine }))).toEqual([1, 1, 1, 1, 0, 1, /**/ 1, 1, 0, 0]);
    expect(selectDetector(phi, {})).toBe(phi);
  });

  it('changes what BEACON credits: the advantages follow the milestones the method sees', () => {
    const batch = (milestones: Uint8Array): AdvantageBatch => ({
      groupOffsets: Int32Array.from([0, 2]),
      runOffsets,
      milestones,
      rewards: Float64Array.from([1, 0]),
    });
    const beaconAdvantages = methodSpec('beacon').estimate;
    const plain = beaconAdvantages(batch(phi), DEFAULT_ADVANTAGE_SETTINGS);
    const coarse = beaconAdvantages(batch(strideMilestones(runOffsets, phi, 2)), DEFAULT_ADVANTAGE_SETTINGS);
    const late = beaconAdvantages(batch(delayMilestones(runOffsets, phi, 1)), DEFAULT_ADVANTAGE_SETTINGS);
    // The trajectory term reads only the outcome: the same under every detector.
    expect(Array.from(coarse.trajectoryAdvantages)).toEqual(Array.from(plain.trajectoryAdvantages));
    // The segment term moves with the boundaries: with stride 2 the failed run has no milestone, so no segment credit.
    expect(Array.from(coarse.segmentAdvantages.slice(6))).toEqual([0, 0, 0, 0]);
    expect(Array.from(plain.segmentAdvantages.slice(6)).some((x) => x !== 0)).toBe(true);
    expect(Array.from(late.segmentAdvantages)).not.toEqual(Array.from(plain.segmentAdvantages));
  });
});
