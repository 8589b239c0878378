/**
 * An MLP tower: the reusable building block of the policy (and of a critic's value network, which is
 * the observation tower plus a linear head with its own weights, docs/maths.md §8).
 *
 *   x → tanh(x · W1 + b1) → … → last layer, tanh or linear
 *
 * Weights are Glorot-uniform draws from the caller's seeded Rng, biases zero, created in layer order so
 * that the same Rng gives the same weights whatever else is built after. Each layer is one dense op
 * (dense.ts): a fused matMul + bias + activation kernel and a gradient that runs fast on wasm.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Rng } from '../prng.ts';
import { dense, linearLayer, tanhLayer } from './dense.ts';

export interface TowerSpec {
  /** Variable name prefix, one per layer: `${name}${layer}`. */
  names: { weight: string; bias: string }[];
  /** Sizes from input to output: [inputDim, hidden…, outputDim]; one layer per consecutive pair. */
  sizes: number[];
  /** tanh on the last layer too, or a linear output. */
  finalTanh: boolean;
}

export interface Tower {
  /** [W1, b1, W2, b2, …] in layer order (the optimiser's and the snapshot's order). */
  readonly variables: tf.Variable[];
  /** [N, inputDim] → [N, outputDim]; x is a constant input (no gradient flows into it). Call inside a tidy. */
  apply(x: tf.Tensor2D): tf.Tensor2D;
  /**
   * The tower at its current weights, for forward passes only (policy.ts `Actor`): the same values as `apply`,
   * with the per-call constants computed once. Valid while the weights do not change; dispose it after.
   */
  frozen(): FrozenTower;
}

export interface FrozenTower {
  /** As Tower.apply, without a gradient. Call inside a tidy. */
  apply(x: tf.Tensor2D): tf.Tensor2D;
  dispose(): void;
}

export function createTower(spec: TowerSpec, rng: Rng): Tower {
  if (spec.names.length !== spec.sizes.length - 1) throw new RangeError('one weight/bias name pair per layer');
  const layers = spec.names.map((n, i) => ({
    w: glorot(n.weight, spec.sizes[i], spec.sizes[i + 1], rng),
    b: tf.tidy(() => tf.variable(tf.zeros([spec.sizes[i + 1]]), true, `${n.bias}_${uniqueId()}`)),
  }));
  const tanhAt = (i: number) => i < layers.length - 1 || spec.finalTanh;
  return {
    variables: layers.flatMap((l) => [l.w, l.b]),
    apply(x: tf.Tensor2D): tf.Tensor2D {
      let y = x;
      layers.forEach((l, i) => {
        y = dense(y, l.w as tf.Tensor2D, l.b as tf.Tensor1D, { activation: tanhAt(i) ? 'tanh' : 'linear', aIsConstant: i === 0 });
      });
      return y;
    },
    frozen(): FrozenTower {
      // A tanh layer's doubled weight and bias (dense.ts), doubled once here instead of on every call.
      // So are the constants of 2σ(2z) − 1: a number argument becomes a new scalar tensor on every call.
      const doubled = tf.tidy(() => layers.map((l, i) => (tanhAt(i) ? [tf.mul(l.w, 2), tf.mul(l.b, 2)] : [])));
      const constants = { two: tf.scalar(2), one: tf.scalar(1) };
      const made = [...doubled.flat(), constants.two, constants.one];
      made.forEach((t) => tf.keep(t)); // whatever tidy this is called in, they live until dispose
      return {
        apply(x: tf.Tensor2D): tf.Tensor2D {
          let y = x;
          layers.forEach((l, i) => {
            const [w2, b2] = doubled[i];
            y = w2 ? tanhLayer(y, w2 as tf.Tensor2D, b2 as tf.Tensor1D, constants) : linearLayer(y, l.w as tf.Tensor2D, l.b as tf.Tensor1D);
          });
          return y;
        },
        dispose: () => tf.dispose(made),
      };
    },
  };
}

function glorot(name: string, rows: number, cols: number, rng: Rng): tf.Variable {
  const limit = Math.sqrt(6 / (rows + cols));
  const values = Float32Array.from({ length: rows * cols }, () => (rng.nextFloat() * 2 - 1) * limit);
  // tidy frees the initial tensor; the variable keeps its data (tf.variable alone leaks one tensor each).
  return tf.tidy(() => tf.variable(tf.tensor2d(values, [rows, cols]), true, `${name}_${uniqueId()}`));
}

// tfjs variable names are global; two policies (GRPO and BEACON side by side) need distinct names.
let nextId = 0;
const uniqueId = () => nextId++;
