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
import { dense } from './dense.ts';

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
}

export function createTower(spec: TowerSpec, rng: Rng): Tower {
  if (spec.names.length !== spec.sizes.length - 1) throw new RangeError('one weight/bias name pair per layer');
  const layers = spec.names.map((n, i) => ({
    w: glorot(n.weight, spec.sizes[i], spec.sizes[i + 1], rng),
    b: tf.tidy(() => tf.variable(tf.zeros([spec.sizes[i + 1]]), true, `${n.bias}_${uniqueId()}`)),
  }));
  return {
    variables: layers.flatMap((l) => [l.w, l.b]),
    apply(x: tf.Tensor2D): tf.Tensor2D {
      let y = x;
      layers.forEach((l, i) => {
        const tanh = i < layers.length - 1 || spec.finalTanh;
        y = dense(y, l.w as tf.Tensor2D, l.b as tf.Tensor1D, { activation: tanh ? 'tanh' : 'linear', aIsConstant: i === 0 });
      });
      return y;
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
