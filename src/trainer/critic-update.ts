/**
 * The critic's regression (docs/maths.md §8): epochs × minibatches of
 *
 *   valueLoss = valueCoef · mean((V(s_t) − R̂_t)²)
 *
 * towards the GAE returns R̂_t = Â_t + V_old(s_t), with its own Adam and global-norm clipping. The
 * policy and the critic share no weights, so updating them in turn is the same as one summed loss.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Critic } from '../policy/critic.ts';
import type { Rng } from '../prng.ts';
import { applyClippedGradients } from './gradients.ts';
import { minibatchOrder } from './minibatches.ts';

export interface CriticSettings {
  epochs: number;
  minibatches: number;
  valueCoef: number;
  maxGradNorm: number;
}

/** Returns the mean value loss over the last epoch's minibatches. */
export async function criticUpdate(critic: Critic, optimizer: tf.Optimizer, obs: Float32Array, returns: Float64Array, settings: CriticSettings, rng: Rng): Promise<number> {
  const S = returns.length;
  const obsDim = obs.length / S;
  const last: tf.Tensor[] = [];
  try {
    for (const { indices, epoch } of minibatchOrder(S, settings.epochs, settings.minibatches, rng)) {
      const loss = tf.tidy(() => {
        const x = new Float32Array(indices.length * obsDim);
        const y = new Float32Array(indices.length);
        indices.forEach((s, i) => {
          x.set(obs.subarray(s * obsDim, (s + 1) * obsDim), i * obsDim);
          y[i] = returns[s];
        });
        const input = tf.tensor2d(x, [indices.length, obsDim]);
        const target = tf.tensor1d(y);
        const { value, grads } = tf.variableGrads(() => tf.mul(settings.valueCoef, tf.mean(tf.square(tf.sub(critic.values(input), target)))) as tf.Scalar, critic.variables);
        applyClippedGradients(optimizer, grads, settings.maxGradNorm);
        return value;
      });
      if (epoch === settings.epochs - 1) last.push(loss);
      else loss.dispose();
    }
    const mean = tf.tidy(() => tf.mean(tf.stack(last)));
    const value = (await mean.data())[0];
    mean.dispose();
    return value;
  } finally {
    tf.dispose(last);
  }
}
