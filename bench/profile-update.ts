/**
 * Where one PPO update's time goes, by kernel family: `npx tsx bench/profile-update.ts [--backend B]
 * [--horizon H] [--legacy] [--kernels]` (GridHouse, width 64, 2 epochs × 2 minibatches by default, as bench:train).
 *
 * tf.profile times every kernel; kernels are grouped into families, Adam is the kernels run inside
 * optimizer.applyGradients (timed by wrapping it), and "host" is wall time minus kernel time: uploads,
 * host-side minibatch copies, op dispatch. A figure to read, not a test.
 */
import * as tf from '@tensorflow/tfjs-core';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';
import { DEFAULT_CONFIG } from '../src/config.ts';
import { Rng } from '../src/prng.ts';
import { ppoUpdate } from '../src/trainer/ppo.ts';
import { Trainer } from '../src/trainer/trainer.ts';
import { disposePpoBatch, toPpoBatch } from '../src/trainer/update-batch.ts';
import { legacyUpdate, pairFeatures } from './legacy-update.ts';

const FAMILIES: Record<string, string[]> = {
  matmul: ['BatchMatMul', '_FusedMatMul'],
  'gather/scatter/transpose': ['GatherV2', 'ScatterNd', 'Transpose', 'OneHot'],
  'softmax/mask': ['Max', 'Log', 'Select', 'Fill', 'Cast'],
  reductions: ['Sum', 'Mean', 'AddN'],
};
const familyOf = (kernel: string) => Object.keys(FAMILIES).find((f) => FAMILIES[f].includes(kernel)) ?? 'elementwise';

const FLAGS = {
  legacy: { kind: 'switch', doc: 'profile the old every-pair update (bench/legacy-update.ts) instead' },
  kernels: { kind: 'switch', doc: 'also list the slowest kernels' },
} as const;
const BASE = { ...DEFAULT_CONFIG, env: 'gridhouse', horizon: 'medium', backend: 'wasm', sftEpisodes: 0 } as const;
const USAGE = `usage: npx tsx bench/profile-update.ts [-- flags]\n${flagsHelp(FLAGS, BASE)}`;

async function main(): Promise<number> {
  const { config, flags, help } = parseFlags(process.argv.slice(2), FLAGS, BASE);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const extra = new Set(Object.keys(flags));
  const backend = await initNodeBackend(config.backend);
  const trainer = new Trainer(config, backend.advantageEngine(config.method));
  for (let i = 0; i < 2; i++) await trainer.step();
  const { rollout, result } = trainer.lastBatch!;
  const env = trainer.env;
  const dims = { obsDim: env.obsDim, actionDim: env.actionDim, maxActions: env.maxActions };
  const advantages = Float32Array.from(result.advantages);
  const optimizer = tf.train.adam(config.learningRate);
  const apply = optimizer.applyGradients.bind(optimizer);
  const run = async () => {
    if (extra.has('legacy'))
      return legacyUpdate(trainer.policy, optimizer, { ...rollout, features: pairFeatures(rollout, dims.actionDim), advantages }, dims, config, new Rng(1));
    const batch = toPpoBatch(rollout, dims, tf.tensor1d(advantages));
    await ppoUpdate(trainer.policy, optimizer, batch, config, new Rng(1));
    disposePpoBatch(batch);
  };
  await run(); // warm-up
  let adamMs = 0;
  optimizer.applyGradients = (g) => {
    const t0 = performance.now();
    apply(g);
    adamMs += performance.now() - t0;
  };
  const t0 = performance.now();
  const info = await tf.profile(run);
  const wallMs = performance.now() - t0;
  const byFamily = new Map<string, number>();
  const byKernel = new Map<string, number>();
  let kernelMs = 0;
  let kernels = 0;
  for (const k of info.kernels) {
    if (!tf.getKernel(k.name, tf.getBackend())) continue; // op wrappers and scopes contain kernels already listed
    kernels++;
    const t = await k.kernelTimeMs;
    const ms = typeof t === 'number' ? t : 0;
    kernelMs += ms;
    byFamily.set(familyOf(k.name), (byFamily.get(familyOf(k.name)) ?? 0) + ms);
    const key = `${k.name} ${k.inputShapes.map((s) => s?.join('×')).join(', ')}`;
    byKernel.set(key, (byKernel.get(key) ?? 0) + ms);
  }
  const rows = [...byFamily.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([family, ms]) => ({ family, ms: +ms.toFixed(1), share: `${((100 * ms) / wallMs).toFixed(1)}%` }));
  rows.push({ family: '(Adam, wall, incl. in the above)', ms: +adamMs.toFixed(1), share: `${((100 * adamMs) / wallMs).toFixed(1)}%` });
  rows.push({ family: 'host: uploads, copies, dispatch', ms: +(wallMs - kernelMs).toFixed(1), share: `${((100 * (wallMs - kernelMs)) / wallMs).toFixed(1)}%` });
  console.log(
    `${extra.has('legacy') ? 'legacy' : 'deduplicated'} update, ${backend.describe}, ${config.env}/${config.horizon}, ${rollout.actions.length} steps, ${kernels} kernels, wall ${wallMs.toFixed(1)} ms (profiled)`,
  );
  console.table(rows);
  if (extra.has('kernels'))
    console.table(
      [...byKernel.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30)
        .map(([kernel, ms]) => ({ kernel, ms: +ms.toFixed(2) })),
    );
  optimizer.dispose();
  trainer.dispose();
  backend.close();
  return 0;
}

runCommand(main, USAGE);
