/**
 * The fused update programs on webgpu (src/backend/webgpu-fused-ops.ts) compute what the stock ops they
 * replace compute, within float rounding, in one dispatch each (counted through the WebGPU API).
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { globalNorm, tanhGrad } from '../../src/backend/webgpu-fused-ops.ts';
import { Rng } from '../../src/prng.ts';
import { expectNoTensorLeak, useWebGpuBackend } from '../support/webgpu.ts';

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

const rng = new Rng(7);
const draw = (n: number) => Float32Array.from({ length: n }, () => rng.nextFloat() * 2 - 1);
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(b)));

describe('fused update programs on webgpu', () => {
  it('tanhGrad is dy · (1 − y²) in one dispatch', async () => {
    await expectNoTensorLeak(async () => {
      const dy = tf.tensor2d(draw(300), [20, 15]);
      const y = tf.tidy(() => tf.tanh(tf.tensor2d(draw(300), [20, 15])));
      await y.data();
      const before = counter.read().dispatches;
      const fused = tanhGrad(dy, y);
      const dispatches = counter.read().dispatches - before;
      const stock = tf.tidy(() => tf.mul(dy, tf.sub(1, tf.square(y))));
      expect(fused.shape).toEqual([20, 15]);
      const [f, s] = [await fused.data(), await stock.data()];
      s.forEach((x, i) => close(f[i], x));
      expect(dispatches).toBe(1);
      tf.dispose([dy, y, fused, stock]);
    });
  });

  it.each([undefined, 2, 1])('globalNorm equals √Σ sum(t²) (inputs per program: %s)', async (perProgram) => {
    await expectNoTensorLeak(async () => {
      // Sizes around the workgroup's 256 and the policy's own: strides, remainders, a scalar-like tensor.
      const tensors = [[94, 64], [64], [64, 64], [1], [33, 64], [257]].map((shape) => tf.tensor(draw(shape.reduce((a, b) => a * b, 1)), shape));
      await Promise.all(tensors.map((t) => t.data()));
      const before = counter.read().dispatches;
      const fused = globalNorm(tensors, perProgram);
      const dispatches = counter.read().dispatches - before;
      const stock = tf.tidy(() => tf.sqrt(tf.addN(tensors.map((t) => tf.sum(tf.square(t))))));
      close((await fused.data())[0], (await stock.data())[0]);
      expect(fused.shape).toEqual([]);
      expect(dispatches).toBe(perProgram === undefined ? Math.ceil(tensors.length / Math.max(1, counterLimit() - 2)) : Math.ceil(tensors.length / perProgram));
      tf.dispose([...tensors, fused, stock]);
    });
  });
});

function counterLimit(): number {
  return (tf.backend() as unknown as { device: GPUDevice }).device.limits.maxStorageBuffersPerShaderStage;
}
