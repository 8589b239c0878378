/**
 * One rollout on tfjs webgpu (Dawn in Node), the CPU-sampled way (src/trainer/rollout.ts: a read-back
 * of the log-probabilities every step) against the GPU rollout (src/trainer/gpu-rollout.ts: three
 * dispatches per step, one read-back), with the calls of the WebGPU API itself counted by wrapping
 * `dispatchWorkgroups`, `submit` and `mapAsync`:
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json npx tsx bench/rollout-gpu.ts [--reps N] [settings…]
 *
 * Settings are the training settings (`--env texthouse`, `--horizon`, `--tasksPerIteration`, …);
 * defaults are the page's (GridHouse long, 8 × 8 runs, width 64). Prints one JSON line per rollout:
 * `{rollout, rep, seconds, steps, dispatches, submits, maps}`. The policy has fresh random weights, so
 * the runs are long. A figure to read, not a test; on a software adapter the seconds are the CPU's.
 */
import { createEnv } from '../envs/index.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initBackend } from '../src/backend/node-webgpu.ts';
import { setWebGpuCpuForward } from '../src/backend/webgpu-interop.ts';
import { DEFAULT_CONFIG } from '../src/config.ts';
import { readShaderSources } from '../src/gpu/shaders-node.ts';
import { Policy } from '../src/policy/policy.ts';
import { Rng } from '../src/prng.ts';
import { GpuRolloutCollector } from '../src/trainer/gpu-rollout.ts';
import { RolloutCollector } from '../src/trainer/rollout.ts';

const FLAGS = {
  reps: { kind: { type: 'int', min: 1, max: 100 }, doc: 'rollouts per path (default 2)' },
} as const;

const USAGE = `usage: npx tsx bench/rollout-gpu.ts [--reps N] [settings…]\n${flagsHelp(FLAGS, DEFAULT_CONFIG)}`;

type Counts = { dispatches: number; submits: number; maps: number };

/** Counts calls of the WebGPU API itself (the `webgpu` package's globals). */
function countGpuCalls(): Counts {
  const counts: Counts = { dispatches: 0, submits: 0, maps: 0 };
  const g = globalThis as unknown as Record<string, { prototype: Record<string, (...args: unknown[]) => unknown> }>;
  for (const [cls, method, count] of [
    ['GPUComputePassEncoder', 'dispatchWorkgroups', 'dispatches'],
    ['GPUQueue', 'submit', 'submits'],
    ['GPUBuffer', 'mapAsync', 'maps'],
  ] as const) {
    const original = g[cls].prototype[method];
    g[cls].prototype[method] = function (this: unknown, ...args: unknown[]) {
      counts[count]++;
      return original.apply(this, args);
    };
  }
  return counts;
}

async function main(): Promise<number> {
  const { flags, config, help } = parseFlags(process.argv.slice(2), FLAGS, DEFAULT_CONFIG);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const reps = flags.reps ?? 2;
  await initBackend('webgpu', { strict: true });
  setWebGpuCpuForward(false);
  const counts = countGpuCalls();
  const env = createEnv(config.env, {
    horizon: config.horizon,
    batchSize: config.tasksPerIteration * config.groupSize,
    milestoneDropout: config.milestoneDropout,
  });
  const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: config.hiddenSize }, new Rng(config.seed));
  const seeds = Uint32Array.from({ length: config.tasksPerIteration }, (_, k) => config.seed * 1000 + k);
  const paths = [
    ['cpu-sampled', new RolloutCollector(env, policy)],
    ['gpu', new GpuRolloutCollector(env, policy, readShaderSources())],
  ] as const;
  for (const [name, collector] of paths) {
    for (let rep = 0; rep < reps; rep++) {
      Object.assign(counts, { dispatches: 0, submits: 0, maps: 0 });
      const t0 = performance.now();
      const rollout = await collector.collect(seeds, config.groupSize, new Rng(config.seed + rep));
      const seconds = Math.round((performance.now() - t0) / 10) / 100;
      process.stdout.write(`${JSON.stringify({ rollout: name, rep, seconds, steps: rollout.actions.length, ...counts })}\n`);
    }
  }
  paths[1][1].dispose();
  policy.dispose();
  return 0;
}

runCommand(main, USAGE);
