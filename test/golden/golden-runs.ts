/**
 * The golden runs: 3 cpu iterations per method and environment at small settings, timings removed.
 * Refactors must reproduce them exactly (test/trainer/golden.test.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { ENV_NAMES } from '../../envs/index.ts';
import { DEFAULT_CONFIG } from '../../src/config.ts';
import { METHOD_NAMES } from '../../src/methods/registry.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { TIMING_KEYS } from '../../src/trainer/iteration-record.ts';
import { TrainingRun } from '../../src/trainer/run.ts';

export async function goldenRecords(): Promise<Record<string, Record<string, unknown>[]>> {
  await tf.setBackend('cpu');
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const env of ENV_NAMES) {
    for (const method of METHOD_NAMES) {
      const run = new TrainingRun(
        { ...DEFAULT_CONFIG, env, method, horizon: 'short', tasksPerIteration: 4, groupSize: 4, hiddenSize: 16, seed: 7, backend: 'cpu', iters: 3 },
        cpuAdvantageEngine,
      );
      const records: Record<string, unknown>[] = [];
      await run.run((r) => {
        const copy: Record<string, unknown> = JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)));
        for (const k of TIMING_KEYS) delete copy[k];
        records.push(copy);
      });
      run.dispose();
      out[`${env}/${method}`] = records;
    }
  }
  return out;
}
