/**
 * The WebGPU call counter counts the API's own calls: a hand-made command stream with known numbers of
 * dispatches, submits, writes and read maps gives exactly those counts, and a tfjs read-back is seen.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { useWebGpuBackend, type WebGpuTestContext } from '../support/webgpu.ts';

const DOUBLE_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&data)) { data[id.x] = 2.0 * data[id.x]; }
}`;

describe('WebGPU call counter', () => {
  let gpu: WebGpuTestContext;
  let counter: WebGpuCallCounter;
  beforeAll(async () => {
    gpu = await useWebGpuBackend();
    counter = installWebGpuCallCounter();
  });
  afterAll(() => counter.uninstall());

  it('counts exactly the dispatches, submits, writes and read maps of a known command stream', async () => {
    const { device } = gpu;
    const n = 100;
    const data = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const staging = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: { module: device.createShaderModule({ code: DOUBLE_WGSL }), entryPoint: 'main' },
    });
    const bindGroup = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: data } }] });
    counter.reset();
    device.queue.writeBuffer(
      data,
      0,
      Float32Array.from({ length: n }, (_, i) => i),
    );
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    for (let k = 0; k < 3; k++) pass.dispatchWorkgroups(Math.ceil(n / 64));
    pass.end();
    encoder.copyBufferToBuffer(data, 0, staging, 0, n * 4);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ, 0, 40);
    const head = new Float32Array(staging.getMappedRange(0, 40).slice(0));
    staging.unmap();
    expect(Array.from(head)).toEqual(Array.from({ length: 10 }, (_, i) => 8 * i)); // doubled three times
    expect(counter.read()).toEqual({ dispatches: 3, submits: 1, readBacks: 1, bytesReadBack: 40, writes: 1, bytesWritten: n * 4 });
    data.destroy();
    staging.destroy();
  });

  it('sees tfjs read a tensor back', async () => {
    const before = counter.read();
    const x = tf.tidy(() => tf.add(tf.range(0, 256, 1, 'float32'), 1));
    const values = await x.data();
    x.dispose();
    expect(values[255]).toBe(256);
    const calls = callsBetween(before, counter.read());
    expect(calls.dispatches).toBeGreaterThanOrEqual(1);
    expect(calls.readBacks).toBe(1);
    expect(calls.bytesReadBack).toBeGreaterThanOrEqual(256 * 4);
  });

  it('is installed once and counts nothing after uninstall', () => {
    expect(installWebGpuCallCounter()).toBe(counter);
    counter.uninstall();
    const fresh = installWebGpuCallCounter();
    const encoder = gpu.device.createCommandEncoder();
    gpu.device.queue.submit([encoder.finish()]);
    expect(fresh.read().submits).toBe(1);
    fresh.uninstall();
    const before = fresh.read().submits;
    gpu.device.queue.submit([gpu.device.createCommandEncoder().finish()]);
    expect(fresh.read().submits).toBe(before);
    counter = installWebGpuCallCounter(); // for afterAll
  });
});
