/**
 * The fused WebGPU Adam (src/backend/webgpu-adam.ts) makes the same clipped Adam steps as tfjs's Adam
 * after applyClippedGradients, within float rounding, in far fewer dispatches (counted through the
 * WebGPU API), and leaves no tensor behind.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { WebGpuAdam } from '../../src/backend/webgpu-adam.ts';
import { Rng } from '../../src/prng.ts';
import { applyClippedGradients } from '../../src/trainer/gradients.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

const SHAPES = [[5, 7], [7], [7, 3], [3]];

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

/** Three clipped steps from seeded weights and gradients; the weights after them and the dispatches spent. */
async function steps(
  optimizer: tf.AdamOptimizer,
  label: string,
  maxGradNorm: number,
): Promise<{ weights: Float32Array[]; dispatches: number; norms: number[] }> {
  const rng = new Rng(21);
  const draw = (shape: number[]) => Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.nextFloat() * 2 - 1);
  const variables = SHAPES.map((shape, i) => tf.tidy(() => tf.variable(tf.tensor(draw(shape), shape), true, `${label}-${i}`)));
  const grads = [0, 1, 2].map(() => SHAPES.map((shape) => draw(shape)));
  await Promise.all(variables.map((v) => v.data()));
  const before = counter.read().dispatches;
  const norms: number[] = [];
  for (const step of grads) {
    const norm = tf.tidy(() => {
      const map = Object.fromEntries(variables.map((v, i) => [v.name, tf.tensor(step[i], SHAPES[i])]));
      // tfjs's optimisers answer instanceof structurally: tell them apart by the method.
      return 'applyClippedGradients' in optimizer
        ? (optimizer as WebGpuAdam).applyClippedGradients(map, maxGradNorm)
        : applyClippedGradients(optimizer, map, maxGradNorm);
    });
    norms.push((await norm.data())[0]);
    norm.dispose();
  }
  const weights = await Promise.all(variables.map((v) => v.data() as Promise<Float32Array>));
  const dispatches = counter.read().dispatches - before;
  tf.dispose(variables);
  optimizer.dispose();
  return { weights, dispatches, norms };
}

describe('fused WebGPU Adam', () => {
  it.each([0.5, 100])('equals tfjs Adam after applyClippedGradients (maxGradNorm %d) in fewer dispatches', async (maxGradNorm) => {
    const stock = await steps(tf.train.adam(0.01), `stock-${maxGradNorm}`, maxGradNorm);
    const tensors = tf.memory().numTensors;
    const fused = await steps(new WebGpuAdam(0.01), `fused-${maxGradNorm}`, maxGradNorm);
    expect(tf.memory().numTensors).toBe(tensors);
    // One program sums the squares in another order than the stock ops: equal within float rounding.
    fused.norms.forEach((n, i) => expect(Math.abs(n - stock.norms[i])).toBeLessThanOrEqual(1e-6 * stock.norms[i]));
    if (maxGradNorm < 1) expect(Math.min(...stock.norms)).toBeGreaterThan(maxGradNorm); // clipping in play
    stock.weights.forEach((w, i) => w.forEach((x, j) => expect(Math.abs(fused.weights[i][j] - x)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(x)))));
    expect(fused.dispatches).toBeLessThan(stock.dispatches / 2);
    console.log(`Adam + clipping, ${SHAPES.length} variables, 3 steps: ${stock.dispatches} dispatches stock, ${fused.dispatches} fused`);
  });
});
