/**
 * The golden runs: 3 cpu iterations per method and environment at small settings, timings removed.
 * Refactors must reproduce them exactly (test/trainer/golden.test.ts). Each record's `path` is checked
 * to be the host's and left out (records.json predates it).
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

const CPU_PATH = JSON.stringify({ rollout: 'host', update: 'ops', metrics: 'host' });

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
        // Where the phases ran is not what they computed: records.json predates the field, so it is
        // checked here (cpu: every phase on the host, nothing asked of the GPU) and left out.
        const path = JSON.stringify(copy.path);
        if (path !== CPU_PATH || 'fallback' in copy)
          throw new Error(`${env}/${method}: a cpu record's path is ${path}, fallback ${copy.fallback}; want ${CPU_PATH}, none`);
        delete copy.path;
        records.push(copy);
      });
      run.dispose();
      out[`${env}/${method}`] = records;
    }
  }
  return out;
}
