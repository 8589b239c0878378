/**
 * Where a steady iteration's fused PPO update spends its time, by kernel: `npx tsx
 * bench/profile-fused-update.ts [--runs 64|4096] [--iterations N]` (GridHouse, tiny horizon, random
 * init, as bench:gpu's `gridhouse-4096` and `gridhouse-64`; webgpu). The last iteration's update
 * submits each dispatch alone and waits for it (fused-ppo.ts `profile`), so its total is slower than
 * one submit and the table says where the time goes, not how fast the update runs. On SwiftShader
 * the milliseconds are the CPU's work on the GPU's arithmetic.
 */
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';
import { DEFAULT_CONFIG } from '../src/config.ts';
import type { FusedPpoKernels } from '../src/gpu/fused-ppo.ts';
import { TrainingRun } from '../src/trainer/run.ts';

const FLAGS = {
  runs: { kind: 'string', doc: 'runs per iteration: 64 (8 × 8) or 4096 (64 × 64); default 4096' },
  iterations: { kind: 'string', doc: 'iterations before the profiled one (warm-up); default 1' },
} as const;
const BASE = { ...DEFAULT_CONFIG, env: 'gridhouse', horizon: 'tiny', backend: 'webgpu', sftEpisodes: 0 } as const;
const USAGE = `usage: npx tsx bench/profile-fused-update.ts [-- flags]\n${flagsHelp(FLAGS, BASE)}`;

async function main(): Promise<number> {
  const { config, flags, help } = parseFlags(process.argv.slice(2), FLAGS, BASE);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const side = Number(flags.runs ?? 4096) === 64 ? 8 : 64;
  const warmup = Number(flags.iterations ?? 1);
  const backend = await initNodeBackend('webgpu');
  const run = new TrainingRun({ ...config, tasksPerIteration: side, groupSize: side, iters: warmup + 1 }, backend.advantageEngine(config.method));
  // The trainer keeps its fused update private; the bench reaches in to switch its profile on.
  const kernels = (run.trainer as unknown as { fusedPpo: { kernels: FusedPpoKernels } | null }).fusedPpo?.kernels;
  if (!kernels) throw new Error('the trainer has no fused PPO update (webgpu with WGSL sources needed)');
  for (let i = 0; i < warmup; i++) await run.step();
  const profile = new Map<string, number>();
  kernels.profile = profile;
  const t0 = performance.now();
  const record = await run.step();
  const wall = performance.now() - t0;
  if (!record) throw new Error(`training stopped: ${run.halted ?? 'no record'}`);
  const total = [...profile.values()].reduce((a, b) => a + b, 0);
  console.log(`${backend.describe}; ${side}×${side} runs, ${record.envSteps} env steps, update path ${record.path?.update ?? '?'}`);
  console.log(`iteration ${(wall / 1000).toFixed(2)} s (each update dispatch submitted alone); phases: ${JSON.stringify(record.ms)}`);
  for (const [name, ms] of [...profile].sort((a, b) => b[1] - a[1]))
    console.log(`  ${name.padEnd(28)} ${(ms / 1000).toFixed(3).padStart(8)} s  ${((100 * ms) / total).toFixed(1).padStart(5)} %`);
  console.log(`  ${'all kernels'.padEnd(28)} ${(total / 1000).toFixed(3).padStart(8)} s`);
  return 0;
}

runCommand(main, USAGE);
