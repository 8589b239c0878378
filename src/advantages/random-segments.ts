/**
 * The "random segmentation" ablation (docs/maths.md §6): each run keeps its number of milestones K_i, but
 * the K_i boundaries move to uniformly random distinct steps instead of where Φ fired.
 */
import type { Rng } from '../prng.ts';

export function randomizeMilestones(runOffsets: Int32Array, milestones: Uint8Array, rng: Rng): Uint8Array {
  const out = new Uint8Array(milestones.length);
  for (let i = 0; i + 1 < runOffsets.length; i++) {
    const start = runOffsets[i];
    const length = runOffsets[i + 1] - start;
    let k = 0;
    for (let t = start; t < start + length; t++) k += milestones[t];
    // Floyd's algorithm: k distinct positions out of `length`, uniformly, in k draws.
    for (let j = length - k; j < length; j++) {
      const pick = rng.nextInt(j + 1);
      out[start + (out[start + pick] ? j : pick)] = 1;
    }
  }
  return out;
}
