/**
 * Proves the test infrastructure works: tfjs on cpu, wasm and WebGPU (Dawn) in Node, sharing GPU
 * buffers between tfjs and a hand-written WGSL kernel, and the page in headless Chromium choosing
 * WebGPU or falling back to wasm with a reason.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import { readTensorToGpu, TENSOR_BUFFER_USAGE } from '../../src/backend/webgpu-interop.ts';
import { launchChromium } from '../../scripts/browser.ts';
import { startPageServer, type PageServer } from '../support/server.ts';
import { expectNoTensorLeak, useWebGpuBackend, type WebGpuTestContext } from '../support/webgpu.ts';

const A = [
  [1, 2, 3],
  [4, 5, 6],
];
const B = [
  [0.5, -1],
  [2, 0.25],
  [-3, 4],
];
// A·B computed by hand.
const AB = [1 * 0.5 + 2 * 2 + 3 * -3, 1 * -1 + 2 * 0.25 + 3 * 4, 4 * 0.5 + 5 * 2 + 6 * -3, 4 * -1 + 5 * 0.25 + 6 * 4];

async function matmulOn(backend: 'cpu' | 'wasm'): Promise<number[]> {
  const report = await initBackend(backend, { strict: true });
  expect(report.backend).toBe(backend);
  expect(tf.getBackend()).toBe(backend);
  return expectNoTensorLeak(async () => {
    const c = tf.tidy(() => tf.matMul(tf.tensor2d(A), tf.tensor2d(B)));
    const values = Array.from(await c.data());
    c.dispose();
    return values;
  });
}

describe('tfjs in Node', () => {
  it('cpu and wasm compute the same small matmul', async () => {
    const cpu = await matmulOn('cpu');
    const wasm = await matmulOn('wasm');
    for (let i = 0; i < AB.length; i++) {
      expect(cpu[i]).toBeCloseTo(AB[i]!, 5);
      expect(wasm[i]).toBeCloseTo(AB[i]!, 5);
    }
  });
});

/** One tiny kernel: dst[i] = 2·src[i] + 1, workgroup size as an override constant. */
const AFFINE_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
override WORKGROUP_SIZE: u32 = 64;
@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&dst)) { dst[id.x] = 2.0 * src[id.x] + 1.0; }
}`;

describe('tfjs on WebGPU (Dawn) in Node', () => {
  let gpu: WebGpuTestContext;
  beforeAll(async () => {
    gpu = await useWebGpuBackend();
  });

  it('runs a matmul', async () => {
    expect(tf.getBackend()).toBe('webgpu');
    expect(gpu.adapterName.length).toBeGreaterThan(0);
    await expectNoTensorLeak(async () => {
      const c = tf.tidy(() => tf.matMul(tf.tensor2d(A), tf.tensor2d(B)));
      const values = await c.data();
      c.dispose();
      for (let i = 0; i < AB.length; i++) expect(values[i]).toBeCloseTo(AB[i]!, 4);
    });
  });

  it('shares buffers both ways with a hand-written WGSL kernel on the backend device', async () => {
    const { device } = gpu;
    const n = 70; // more than one workgroup of 64
    const input = Float32Array.from({ length: n }, (_, i) => i * 0.5 - 3);
    await expectNoTensorLeak(async () => {
      // A fresh tensor's data sits on the CPU until a kernel uses it: raw dataToGPU refuses it,
      // readTensorToGpu uploads it first.
      const x = tf.tensor1d(input);
      expect(() => x.dataToGPU()).toThrow(/not on GPU/);
      const view = readTensorToGpu(x);
      expect(view.buffer).toBeInstanceOf(GPUBuffer);
      expect(view.buffer.size).toBe(n * 4);

      const out = device.createBuffer({ size: n * 4, usage: TENSOR_BUFFER_USAGE });
      device.pushErrorScope('validation');
      const pipeline = device.createComputePipeline({
        layout: 'auto',
        compute: { module: device.createShaderModule({ code: AFFINE_WGSL }), entryPoint: 'main' },
      });
      const bindGroup = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: view.buffer } },
          { binding: 1, resource: { buffer: out } },
        ],
      });
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(Math.ceil(n / 64));
      pass.end();
      device.queue.submit([encoder.finish()]);
      expect(await device.popErrorScope()).toBeNull();
      view.tensorRef.dispose(); // safe: the dispatch reading it is already submitted

      // Our buffer becomes a tensor without a copy and feeds ordinary tfjs ops.
      const y = tf.tensor({ buffer: out, zeroCopy: true }, [n], 'float32');
      const z = tf.tidy(() => tf.sum(y));
      const yValues = await y.data();
      const zValue = (await z.data())[0]!;
      tf.dispose([x, y, z]);
      out.destroy(); // zeroCopy: tfjs does not own `out`, so we destroy it after the tensor is gone

      let expectedSum = 0;
      for (let i = 0; i < n; i++) {
        expect(yValues[i]).toBe(2 * input[i]! + 1);
        expectedSum += 2 * input[i]! + 1;
      }
      expect(zValue).toBeCloseTo(expectedSum, 3);
    });
  });

  it('rejects a zero-copy buffer without COPY_SRC usage (tfjs needs STORAGE | COPY_SRC)', () => {
    const buffer = gpu.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    expect(() => tf.tensor({ buffer, zeroCopy: true }, [4], 'float32')).toThrow(/COPY_SRC/);
    buffer.destroy();
  });
});

describe('the page in headless Chromium', () => {
  let server: PageServer;
  const browsers = new Map<boolean, Browser>();
  beforeAll(async () => {
    server = await startPageServer('dist');
  });
  afterAll(async () => {
    await Promise.all([...browsers.values()].map((b) => b.close()));
    await server?.close();
  });

  /**
   * Opens the page (paused, so no training competes for the CPU) and waits for the backend badge.
   * Reads only the page's test contract: an element with `data-backend`, reasons as visible text once its
   * explanation is opened (a button with `aria-expanded`).
   */
  async function openPage(webgpu: boolean, baseUrl = server.url, query = 'autostart=0') {
    let browser = browsers.get(webgpu);
    if (!browser) {
      browser = await launchChromium({ webgpu });
      browsers.set(webgpu, browser);
    }
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseUrl}?${query}`);
    const badge = page.locator('[data-backend]').first();
    await badge.waitFor({ timeout: 45_000 });
    return { page, badge, backend: await badge.getAttribute('data-backend'), errors };
  }

  it('gets a WebGPU adapter and reports webgpu when asked for it', async () => {
    // Under `auto` the page measures and may choose wasm over a software adapter (test/e2e/workshop.test.ts).
    const { page, badge, backend, errors } = await openPage(true, server.url, 'backend=webgpu&autostart=0');
    const adapter = await page.evaluate(async () => {
      const a = await navigator.gpu.requestAdapter();
      return a ? a.info.architecture || a.info.vendor || 'unnamed' : null;
    });
    expect(adapter).not.toBeNull();
    expect(backend).toBe('webgpu');
    expect(await badge.getByText(/fallback/i).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('falls back to wasm, with the reason, when WebGPU has no adapter', async () => {
    const { badge, backend, errors } = await openPage(false);
    expect(backend).toBe('wasm');
    // The badge keeps one line; its explanation, with the reason, opens on demand.
    await badge.locator('button[aria-expanded]').first().click();
    await expect(
      badge
        .getByText(/no WebGPU adapter/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    expect(errors).toEqual([]);
  });

  it('falls back to wasm, with the reason, when there is no WebGPU API (not a secure context)', async () => {
    const { page, badge, backend, errors } = await openPage(true, server.insecureUrl);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(backend).toBe('wasm');
    // The badge keeps one line; its explanation, with the reason, opens on demand.
    await badge.locator('button[aria-expanded]').first().click();
    await expect(
      badge
        .getByText(/no WebGPU API/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    expect(errors).toEqual([]);
  });
});
