import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import './cli/register-gradients.ts';
import { TrainingRun } from './src/trainer/run.ts';
import { cpuAdvantageEngine } from './src/trainer/advantage-engine.ts';
import { PAGE_DEFAULT_CONFIG } from './src/page/page-defaults.ts';
await tf.setBackend('wasm');
const env = process.argv[2] as 'gridhouse'; const epsList = process.argv[3].split(',').map(Number); const epochs = Number(process.argv[4] ?? 4);
for (const eps of epsList) for (const seed of [1, 2, 3]) {
  const t0 = performance.now();
  const run = new TrainingRun({ ...PAGE_DEFAULT_CONFIG, env, method: 'grpo', seed, sftEpisodes: eps, sftEpochs: epochs, backend: 'wasm' }, cpuAdvantageEngine);
  const r0 = await run.evaluateStart();
  const t1 = performance.now();
  console.log(env, 'eps', eps, 'ep', epochs, 'seed', seed, 'it0 success', r0.success.toFixed(3), 'partial', r0.partial.toFixed(2), 'prior+eval s', ((t1 - t0) / 1000).toFixed(1));
  run.dispose();
}
