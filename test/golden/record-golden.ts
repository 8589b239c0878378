// Records 3 cpu iterations per method and environment (see test/trainer/golden.test.ts): `npx tsx test/golden/record-golden.ts > test/golden/records.json`.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { DEFAULT_CONFIG } from '../../src/config.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
await tf.setBackend('cpu');
const out: Record<string, unknown[]> = {};
for (const env of ['gridhouse', 'texthouse'] as const) for (const method of ['grpo', 'beacon'] as const) {
  const t = new Trainer({ ...DEFAULT_CONFIG, env, method, horizon: 'short', tasksPerIteration: 4, groupSize: 4, hiddenSize: 16, seed: 7, backend: 'cpu' });
  const recs = [];
  for (let i = 0; i < 3; i++) { const r: any = await t.step(); delete r.ms; delete r.envStepsPerSecond; recs.push(r); }
  t.dispose();
  out[`${env}/${method}`] = recs;
}
console.log(JSON.stringify(out, null, 1));
