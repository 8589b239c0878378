/**
 * Speed of the advantage computation where the batch already lives on the GPU (tfjs webgpu on Dawn):
 * `npm run -s bench:kernels -- [--json] [--sizes 1000,65536,1048576] [--reps N]`.
 *
 * One row per method and batch size, `{method, steps, fusedMs, tfjsOpsMs, cpuMs, dispatches}`:
 * - method:    `beacon` (default settings, paper variant) or `gigpo` (docs/maths.md §7, default settings);
 * - fusedMs:   the WGSL kernels (src/gpu/), from input tensors to the advantages tensor; for GiGPO this
 *              includes building the step-group index on the CPU from the state keys and uploading it;
 * - tfjsOpsMs: the same maths composed from stock tfjs ops on the same adapter (bench/composed-ops.ts;
 *              BEACON only, null for GiGPO);
 * - cpuMs:     the CPU reference including the read-back of the inputs and the upload of the result;
 * - dispatches: compute dispatches of the fused path;
 * - coverage:  GiGPO only, the batch's anchor-state coverage.
 * Every time runs until the GPU has finished (queue drained); medians over --reps repetitions after a
 * warm-up (shader compilation). A figure to read, not a test. Batches: groups of 8 runs of 1–256 steps
 * (mean ≈ 128), milestones with probability 0.04 per step, a third of the runs successful; GiGPO's
 * state keys uniform over 4096 states per step (about a fifth of the steps share a state in their group).
 */
import * as tf from '@tensorflow/tfjs-core';
import { estimateAdvantages as computeAdvantages, methodSpec } from '../src/methods/registry.ts';
import { buildStepGroupIndex, computeGigpo } from '../src/advantages/gigpo.ts';
import type { AdvantageBatch } from '../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS, DEFAULT_GIGPO_SETTINGS } from '../src/config.ts';
import { initBackend, uninstallNodeWebGpu } from '../src/backend/node-webgpu.ts';
import { getWebGpuBackend, setWebGpuCpuForward } from '../src/backend/webgpu-interop.ts';
import { GpuAdvantageEstimator } from '../src/gpu/advantage-estimator.ts';
import { batchToTensors, type AdvantageTensors } from '../src/gpu/advantage-tensors.ts';
import { composedAdvantages } from './composed-ops.ts';
import { readShaderSources } from '../src/gpu/shaders-node.ts';
import { Rng } from '../src/prng.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';

interface Row {
  method: 'beacon' | 'gigpo';
  steps: number;
  fusedMs: number;
  tfjsOpsMs: number | null;
  cpuMs: number;
  dispatches: number;
  coverage?: number;
}

/** GiGPO's state keys for a batch: uniform over `states` per step. */
function makeStateKeys(steps: number, states: number, rng: Rng): Uint32Array {
  return Uint32Array.from({ length: steps }, () => rng.nextInt(states));
}

/** The batch's inputs read back from the GPU as a CPU AdvantageBatch (part of the CPU path's cost). */
async function readBatch(inputs: AdvantageTensors): Promise<AdvantageBatch> {
  const [groupOffsets, runOffsets, milestones, rewards] = await Promise.all(
    [inputs.groupOffsets, inputs.runOffsets, inputs.milestones, inputs.rewards].map((t) => t.data()),
  );
  return {
    groupOffsets: groupOffsets as Int32Array,
    runOffsets: runOffsets as Int32Array,
    milestones: Uint8Array.from(milestones),
    rewards: rewards as Float32Array,
  };
}

const FLAGS = {
  json: { kind: 'switch', doc: 'print the rows as JSON' },
  sizes: { kind: { type: 'list', min: 2, max: 2 ** 26 }, doc: 'batch sizes in steps; default 1000,65536,1048576' },
  reps: { kind: { type: 'int', min: 1, max: 1000 }, doc: 'timed repetitions per size (default: 15, 5 or 3 by size)' },
} as const;
const USAGE = `usage: npm run -s bench:kernels -- [--json] [--sizes N,N,…] [--reps N]\n${flagsHelp(FLAGS)}`;

/** A batch of exactly `steps` steps (see the header for its shape). */
function makeBatch(steps: number, rng: Rng): AdvantageBatch {
  const lengths: number[] = [];
  for (let total = 0; total < steps; ) {
    const L = Math.min(1 + rng.nextInt(256), steps - total);
    lengths.push(L);
    total += L;
  }
  if (lengths.length < 2) lengths.splice(0, 1, steps - 1, 1); // a group needs two runs
  const groupSizes: number[] = [];
  for (let r = 0; r < lengths.length; r += 8) groupSizes.push(Math.min(8, lengths.length - r));
  if (groupSizes.length > 1 && groupSizes[groupSizes.length - 1] < 2) groupSizes[groupSizes.length - 2] += groupSizes.pop()!;
  const milestones = new Uint8Array(steps);
  const rewards = new Float64Array(lengths.length);
  const runOffsets = new Int32Array(lengths.length + 1);
  lengths.forEach((L, i) => {
    runOffsets[i + 1] = runOffsets[i] + L;
    for (let t = runOffsets[i]; t < runOffsets[i + 1]; t++) milestones[t] = rng.bernoulli(0.04) ? 1 : 0;
    if (rng.bernoulli(1 / 3)) {
      rewards[i] = 1;
      milestones[runOffsets[i + 1] - 1] = 1;
    }
  });
  const groupOffsets = new Int32Array(groupSizes.length + 1);
  groupSizes.forEach((n, g) => (groupOffsets[g + 1] = groupOffsets[g] + n));
  return { groupOffsets, runOffsets, milestones, rewards };
}

/** Submits tfjs's pending commands and waits until the GPU queue is empty. */
async function drain(): Promise<void> {
  const backend = getWebGpuBackend();
  backend.ensureCommandEncoderReady();
  backend.endComputePassEncoder();
  backend.submitQueue();
  await backend.device.queue.onSubmittedWorkDone();
}

/** Fresh input tensors whose data lives only on the GPU (so every read-back is a real one). */
async function gpuInputs(batch: AdvantageBatch): Promise<AdvantageTensors> {
  const inputs = batchToTensors(batch);
  const backend = getWebGpuBackend();
  for (const t of Object.values(inputs)) backend.uploadToGPU(t.dataId);
  await drain();
  return inputs;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timePath(batch: AdvantageBatch, reps: number, path: (inputs: AdvantageTensors) => Promise<tf.Tensor>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i <= reps; i++) {
    const inputs = await gpuInputs(batch);
    const t0 = performance.now();
    const a = await path(inputs);
    await drain();
    const ms = performance.now() - t0;
    if (i > 0) times.push(ms); // i = 0 is the warm-up
    tf.dispose([a, ...Object.values(inputs)]);
  }
  return median(times);
}

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const json = flags.json === true;
  const sizes = flags.sizes ?? [1000, 65_536, 1_048_576];
  const reps = flags.reps;
  const report = await initBackend('webgpu', { strict: true });
  setWebGpuCpuForward(false);
  const estimator = new GpuAdvantageEstimator(readShaderSources());
  const settings = DEFAULT_ADVANTAGE_SETTINGS;
  const rows: Row[] = [];
  for (const steps of sizes) {
    const batch = makeBatch(steps, new Rng(steps));
    const n = reps ?? (steps <= 10_000 ? 15 : steps <= 100_000 ? 5 : 3);
    const fusedMs = await timePath(batch, n, async (inputs) => (await estimator.compute(inputs, settings, methodSpec(settings.method).switches!)).advantages);
    const tfjsOpsMs = await timePath(batch, n, async (inputs) => composedAdvantages(inputs, settings));
    const cpuMs = await timePath(batch, n, async (inputs) => {
      const a = tf.tensor1d(Float32Array.from(computeAdvantages(await readBatch(inputs), settings).advantages));
      getWebGpuBackend().uploadToGPU(a.dataId);
      return a;
    });
    rows.push({
      method: 'beacon',
      steps,
      fusedMs: round(fusedMs),
      tfjsOpsMs: round(tfjsOpsMs),
      cpuMs: round(cpuMs),
      dispatches: GpuAdvantageEstimator.DISPATCHES,
    });

    // GiGPO: the state keys live on the CPU (the environment's), so both paths start from them there.
    const keys = makeStateKeys(steps, 4096, new Rng(steps + 1));
    const gigpoFusedMs = await timePath(
      batch,
      n,
      async (inputs) => (await estimator.computeGigpo(inputs, buildStepGroupIndex(batch, keys), DEFAULT_GIGPO_SETTINGS)).advantages,
    );
    let coverage = 0;
    const gigpoCpuMs = await timePath(batch, n, async (inputs) => {
      const result = computeGigpo(await readBatch(inputs), keys, DEFAULT_GIGPO_SETTINGS);
      coverage = result.anchorCoverage;
      const a = tf.tensor1d(Float32Array.from(result.advantages));
      getWebGpuBackend().uploadToGPU(a.dataId);
      return a;
    });
    rows.push({
      method: 'gigpo',
      steps,
      fusedMs: round(gigpoFusedMs),
      tfjsOpsMs: null,
      cpuMs: round(gigpoCpuMs),
      dispatches: GpuAdvantageEstimator.GIGPO_DISPATCHES,
      coverage: round(coverage),
    });
    if (!json) process.stderr.write(`  ${steps} steps done\n`);
  }
  estimator.dispose();
  if (json) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } else {
    const adapter = report.adapterName ?? 'unknown adapter';
    const header = ['method', 'steps', 'fused ms', 'tfjs ops ms', 'cpu ms', 'dispatches', 'ops/fused', 'cpu/fused', 'coverage'];
    const lines = rows.map((r) =>
      [
        r.method,
        r.steps,
        r.fusedMs,
        r.tfjsOpsMs ?? '—',
        r.cpuMs,
        r.dispatches,
        r.tfjsOpsMs === null ? '—' : `${round(r.tfjsOpsMs / r.fusedMs)}×`,
        `${round(r.cpuMs / r.fusedMs)}×`,
        r.coverage ?? '—',
      ].map(String),
    );
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const fmt = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
    process.stdout.write(`advantage kernels on ${adapter} (median ms, batch on the GPU → advantages tensor on the GPU)\n`);
    process.stdout.write(`${fmt(header)}\n${lines.map(fmt).join('\n')}\n`);
  }
  tf.removeBackend('webgpu');
  uninstallNodeWebGpu();
  return 0;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

runCommand(main, USAGE);
