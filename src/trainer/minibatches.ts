/**
 * The order in which every update of the project (PPO, the critic, behaviour cloning) visits a batch:
 * `epochs` passes, each over a fresh shuffle of the step indices from the run's seeded Rng, cut into
 * `minibatches` contiguous slices of near-equal size (at most one per step).
 */
import type { Rng } from '../prng.ts';

export interface Minibatch {
  /** Step indices of this minibatch (a view into the shuffled order: use before the next one). */
  indices: Int32Array;
  /** 0-based pass over the batch. */
  epoch: number;
}

export function* minibatchOrder(steps: number, epochs: number, minibatches: number, rng: Rng): Generator<Minibatch> {
  const slices = Math.max(1, Math.min(minibatches, steps));
  const order = Int32Array.from({ length: steps }, (_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    rng.shuffle(order);
    for (let m = 0; m < slices; m++) yield { indices: order.subarray(Math.floor((m * steps) / slices), Math.floor(((m + 1) * steps) / slices)), epoch };
  }
}
