/**
 * Rough speed ratio of tfjs backends in Node on a small matmul loop: cpu vs wasm vs webgpu (Dawn).
 *
 * A figure to read, not a test. Two shapes of work: "sync" reads each result back (latency-bound, as
 * when a rollout samples actions), "batch" queues many matmuls and reads once (throughput-bound).
 * Run: npx tsx bench/backends.ts   (set VK_ICD_FILENAMES to choose a Vulkan driver for Dawn)
 */
import * as tf from '@tensorflow/tfjs-core';
import { initBackend, uninstallNodeWebGpu } from '../src/backend/node-webgpu.ts';
import { setWebGpuCpuForward } from '../src/backend/webgpu-interop.ts';
import { BACKEND_NAMES, type BackendName } from '../src/backend/select.ts';
import { parseFlags, runCommand } from '../cli/flags.ts';

const SIZES = [32, 128, 256];
const BATCH = 20;

async function timeMs(fn: () => Promise<void>, reps: number): Promise<number> {
  await fn(); // warm-up: shader compilation, wasm instantiation
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) await fn();
  return (performance.now() - t0) / reps;
}

async function bench(backend: BackendName): Promise<Record<string, number | string>> {
  const report = await initBackend(backend, { strict: true });
  if (backend === 'webgpu') setWebGpuCpuForward(false);
  const row: Record<string, number | string> = { backend: report.adapterName ? `${backend} (${report.adapterName})` : backend };
  for (const n of SIZES) {
    const a = tf.randomUniform([n, n], -1, 1, 'float32', 1);
    const b = tf.randomUniform([n, n], -1, 1, 'float32', 2);
    row[`sync ${n}`] = await timeMs(async () => {
      const c = tf.matMul(a, b);
      await c.data();
      c.dispose();
    }, 10);
    row[`batch ${n}`] =
      (await timeMs(async () => {
        const c = tf.tidy(() => {
          let acc = tf.matMul(a, b);
          for (let i = 1; i < BATCH; i++) acc = tf.add(acc, tf.matMul(a, b));
          return acc;
        });
        await c.data();
        c.dispose();
      }, 2)) / BATCH;
    tf.dispose([a, b]);
    console.error(`${backend} n=${n} done`);
  }
  return row;
}

const USAGE = 'usage: npx tsx bench/backends.ts (no flags)';

async function main(): Promise<number> {
  if (parseFlags(process.argv.slice(2), {}).help) {
    console.log(USAGE);
    return 0;
  }
  const rows = [];
  for (const backend of [...BACKEND_NAMES].reverse()) rows.push(await bench(backend));
  console.log('ms per matmul (n×n · n×n), lower is better');
  console.table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? +v.toFixed(3) : v]))));
  tf.removeBackend('webgpu');
  uninstallNodeWebGpu();
  return 0;
}

runCommand(main, USAGE);
