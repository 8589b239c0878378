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
import { type Minibatch, minibatchOrder } from './minibatches.ts';
import { chunkedStep, chunksOf, chunkSteps } from './update-chunks.ts';

export interface CriticSettings {
  epochs: number;
  minibatches: number;
  valueCoef: number;
  maxGradNorm: number;
  /** The most values one per-step tensor may hold before a minibatch is cut into chunks (update-chunks.ts). */
  chunkElements?: number;
}

/**
 * Returns the mean value loss over the last epoch's minibatches. `order`: the minibatches to visit;
 * by default drawn from `rng` (minibatches.ts).
 */
export async function criticUpdate(
  critic: Critic,
  optimizer: tf.Optimizer,
  obs: Float32Array,
  returns: Float64Array,
  settings: CriticSettings,
  rng: Rng,
  order: Iterable<Minibatch> = minibatchOrder(returns.length, settings.epochs, settings.minibatches, rng),
): Promise<number> {
  const S = returns.length;
  const obsDim = obs.length / S;
  const last: tf.Tensor[] = [];
  try {
    for (const { indices, epoch } of order) {
      // The value loss over `rows`, times `weight`, and its gradients. Call inside a tf.tidy.
      const lossGradients = (rows: Int32Array, weight: number) => {
        const x = new Float32Array(rows.length * obsDim);
        const y = new Float32Array(rows.length);
        rows.forEach((s, i) => {
          x.set(obs.subarray(s * obsDim, (s + 1) * obsDim), i * obsDim);
          y[i] = returns[s];
        });
        const input = tf.tensor2d(x, [rows.length, obsDim]);
        const target = tf.tensor1d(y);
        const loss = () => tf.mul(settings.valueCoef, tf.mean(tf.square(tf.sub(critic.values(input), target))));
        return tf.variableGrads(() => (weight === 1 ? loss() : tf.mul(loss(), weight)) as tf.Scalar, critic.variables);
      };
      const chunks = chunksOf(indices, chunkSteps(critic.hiddenSize, settings.chunkElements));
      const loss =
        chunks.length > 1
          ? // Too big for one pass (update-chunks.ts): the same step, its loss summed over chunks.
            tf.tidy(() => {
              const out = chunkedStep(optimizer, chunks, indices.length, settings.maxGradNorm, (rows, weight) => {
                const { value, grads } = lossGradients(rows, weight);
                return { grads, parts: [tf.keep(value)] };
              });
              return tf.reshape(tf.slice(out, 0, 1), []);
            })
          : tf.tidy(() => {
              const { value, grads } = lossGradients(indices, 1);
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
