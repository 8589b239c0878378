/**
 * The WebGPU call counter counts the API's own calls: a hand-made command stream with known numbers of
 * dispatches, submits, writes and read maps gives exactly those counts; a tfjs read-back, tfjs's own
 * upload of a tensor (a mapped write, not a writeBuffer) and its pipeline compilations are seen.
 * The waits' arithmetic is checked without a GPU in call-counter-waits.test.ts.
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
    const { gpuWaitMs, gpuWaitCpuMs, ...calls } = counter.read();
    expect(calls).toEqual({
      dispatches: 3,
      submits: 1,
      readBacks: 1,
      bytesReadBack: 40,
      writes: 1,
      mappedWrites: 0,
      bytesWritten: n * 4,
      bytesWrittenMapped: 0,
      pipelines: 0,
      buffersCreated: 0,
      buffersDestroyed: 0,
      bytesCreated: 0,
      bytesDestroyed: 0,
    });
    expect(gpuWaitMs).toBeGreaterThan(0); // the mapAsync was awaited
    expect(gpuWaitCpuMs).toBe(0); // installed without a CPU clock
    data.destroy();
    staging.destroy();
    staging.destroy(); // twice: still one buffer destroyed
    expect(counter.read().buffersDestroyed).toBe(2); // counted since the reset above
  });

  it('counts buffers created and destroyed, so a test can see what lives', () => {
    const before = counter.read();
    const a = gpu.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    const b = gpu.device.createBuffer({ size: 32, usage: GPUBufferUsage.STORAGE, mappedAtCreation: true });
    b.unmap();
    a.destroy();
    a.destroy(); // twice: its bytes counted once
    const calls = callsBetween(before, counter.read());
    expect([calls.buffersCreated, calls.buffersDestroyed]).toEqual([2, 1]);
    expect([calls.bytesCreated, calls.bytesDestroyed]).toEqual([16 + 32, 16]); // their sizes: what lives is the difference
    b.destroy();
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

  it("counts tfjs's upload of a tensor's values, a mapped write of its bytes", async () => {
    const n = 1000;
    const before = counter.read();
    const x = tf.tensor1d(Float32Array.from({ length: n }, (_, i) => i));
    const y = tf.tidy(() => tf.add(x, x)); // the op makes tfjs upload x, once
    const values = await y.data();
    tf.dispose([x, y]);
    expect(values[n - 1]).toBe(2 * (n - 1));
    const calls = callsBetween(before, counter.read());
    expect(calls.mappedWrites).toBe(1);
    expect(calls.bytesWrittenMapped).toBe(n * 4);
    // Plus the program's uniforms, which tfjs writes with writeBuffer.
    expect(calls.bytesWritten).toBeGreaterThan(n * 4);
    expect(calls.writes).toBeGreaterThanOrEqual(1);
  });

  it('counts a pipeline per new tfjs program and none when the program is cached', async () => {
    const run = async (size: number) => {
      const before = counter.read();
      const x = tf.tidy(() => tf.sqrt(tf.add(tf.fill([size], 4), 5)));
      await x.data();
      x.dispose();
      return callsBetween(before, counter.read()).pipelines;
    };
    expect(await run(37)).toBeGreaterThanOrEqual(1); // sqrt and add of this shape's rank, first time in this process
    expect(await run(37)).toBe(0);
    expect(await run(41)).toBe(0); // tfjs keys programs by rank, not size
    const { device } = gpu;
    const before = counter.read().pipelines;
    const module = device.createShaderModule({ code: DOUBLE_WGSL });
    device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    expect(counter.read().pipelines - before).toBe(2);
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
