/**
 * The learned critic of PPO (docs/maths.md §8): the policy's observation tower, with its own weights,
 * plus a linear head, V(s) = head · tanh(tanh(obs · W1 + b1) · W2 + b2). It is the second network
 * BEACON does without: its forward and backward passes are the cost the time split shows.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Rng } from '../prng.ts';
import { createTower, type Tower } from './tower.ts';

export class Critic {
  private readonly tower: Tower;
  readonly variables: tf.Variable[];

  constructor(
    obsDim: number,
    readonly hiddenSize: number,
    rng: Rng,
  ) {
    this.tower = createTower(
      {
        names: [
          { weight: 'vw1', bias: 'vb1' },
          { weight: 'vw2', bias: 'vb2' },
          { weight: 'vhead', bias: 'vbias' },
        ],
        sizes: [obsDim, hiddenSize, hiddenSize, 1],
        finalTanh: false,
      },
      rng,
    );
    this.variables = this.tower.variables;
  }

  /** V(s) per row of `obs` [N, obsDim] → [N]. Call inside a tidy. */
  values(obs: tf.Tensor2D): tf.Tensor1D {
    return tf.reshape(this.tower.apply(obs), [-1]) as tf.Tensor1D;
  }

  dispose(): void {
    tf.dispose(this.variables);
  }
}
