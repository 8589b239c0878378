/**
 * One rollout on tfjs webgpu (Dawn in Node), the CPU-sampled way (src/trainer/rollout.ts: a read-back
 * of the log-probabilities every step) against the GPU rollout (src/trainer/gpu-rollout.ts: whole
 * episodes in one kernel, one read-back), with the calls of the WebGPU API itself counted:
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json npx tsx bench/rollout-gpu.ts [--reps N] [--gpuOnly] [settings…]
 *
 * Settings are the training settings (`--env texthouse`, `--horizon`, `--tasksPerIteration`, …);
 * defaults are the page's (GridHouse long, 8 × 8 runs, width 64). Prints one JSON line per rollout:
 * `{rollout, rep, seconds, steps, dispatches, submits, readBacks, bytesReadBack}` (counted by
 * src/backend/webgpu-call-counter.ts), and for the GPU rollout
 * `replaySeconds`, the part of `seconds` its batch took to lay out by replaying its actions on the CPU,
 * and `checkSeconds`, the part its log-probability check against the policy took (8 runs, plain
 * arithmetic on the CPU: src/trainer/log-prob-check.ts).
 * `--gpuOnly` skips the CPU-sampled rollout (slow at thousands of runs on a software adapter). The
 * policy has fresh random weights, so the runs are long. A figure to read, not a test; on a software
 * adapter the seconds are the CPU's.
 */
import { createEnv } from '../envs/index.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initBackend } from '../src/backend/node-webgpu.ts';
import { installWebGpuCallCounter } from '../src/backend/webgpu-call-counter.ts';
import { setWebGpuCpuForward } from '../src/backend/webgpu-interop.ts';
import { DEFAULT_CONFIG } from '../src/config.ts';
import { readShaderSources } from '../src/gpu/shaders-node.ts';
import { Policy } from '../src/policy/policy.ts';
import { Rng } from '../src/prng.ts';
import { GpuRolloutCollector } from '../src/trainer/gpu-rollout.ts';
import { RolloutCollector } from '../src/trainer/rollout.ts';

const FLAGS = {
  reps: { kind: { type: 'int', min: 1, max: 100 }, doc: 'rollouts per path (default 2)' },
  gpuOnly: { kind: 'switch', doc: 'time the GPU rollout only' },
} as const;

const USAGE = `usage: npx tsx bench/rollout-gpu.ts [--reps N] [--gpuOnly] [settings…]\n${flagsHelp(FLAGS, DEFAULT_CONFIG)}`;

async function main(): Promise<number> {
  const { flags, config, help } = parseFlags(process.argv.slice(2), FLAGS, DEFAULT_CONFIG);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const reps = flags.reps ?? 2;
  await initBackend('webgpu', { strict: true });
  setWebGpuCpuForward(false);
  const counter = installWebGpuCallCounter();
  const env = createEnv(config.env, {
    horizon: config.horizon,
    batchSize: config.tasksPerIteration * config.groupSize,
    milestoneDropout: config.milestoneDropout,
  });
  const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: config.hiddenSize }, new Rng(config.seed));
  const seeds = Uint32Array.from({ length: config.tasksPerIteration }, (_, k) => config.seed * 1000 + k);
  const gpu = new GpuRolloutCollector(env, policy, readShaderSources());
  const paths = [...(flags.gpuOnly ? [] : [['cpu-sampled', new RolloutCollector(env, policy)] as const]), ['gpu', gpu] as const];
  const round = (s: number) => Math.round(s * 1000) / 1000;
  for (const [name, collector] of paths) {
    for (let rep = 0; rep < reps; rep++) {
      counter.reset();
      const t0 = performance.now();
      const rollout = await collector.collect(seeds, config.groupSize, new Rng(config.seed + rep));
      const seconds = round((performance.now() - t0) / 1000);
      const replay = collector === gpu ? { replaySeconds: round(gpu.lastReplaySeconds), checkSeconds: round(gpu.lastCheckSeconds) } : {};
      const { dispatches, submits, readBacks, bytesReadBack } = counter.read();
      const calls = { dispatches, submits, readBacks, bytesReadBack };
      process.stdout.write(`${JSON.stringify({ rollout: name, rep, seconds, steps: rollout.actions.length, ...calls, ...replay })}\n`);
    }
  }
  gpu.dispose();
  policy.dispose();
  return 0;
}

runCommand(main, USAGE);
