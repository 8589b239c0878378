/**
 * The custom method trains through its sandbox exactly like the built-in method it rewrites: GRPO
 * written against the estimator interface gives the same records as `method: grpo` (cpu, same seed),
 * and the tensor count stays flat across its iterations.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEstimatorSandbox } from '../../cli/estimator-sandbox.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { GRPO_TEMPLATE, MILESTONE_SEGMENTS_TEMPLATE } from '../../src/estimator/templates.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { createCustomAdvantageEngine } from '../../src/engine/custom-advantage-engine.ts';
import { TIMING_KEYS, type IterationRecord } from '../../src/trainer/iteration-record.ts';
import { TrainingRun } from '../../src/trainer/run.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config = (method: TrainConfig['method']): TrainConfig => ({
  ...DEFAULT_CONFIG,
  env: 'gridhouse',
  horizon: 'short',
  method,
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  seed: 7,
  backend: 'cpu',
  iters: 3,
});

async function records(c: TrainConfig, engine: AdvantageEngine): Promise<Record<string, unknown>[]> {
  const run = new TrainingRun(c, engine);
  const out: Record<string, unknown>[] = [];
  await run.run((r: IterationRecord) => {
    const copy: Record<string, unknown> = { ...r };
    for (const k of TIMING_KEYS) delete copy[k];
    delete copy.method;
    out.push(copy);
  });
  run.dispose();
  return out;
}

describe('the custom method', () => {
  it('GRPO written against the estimator interface trains exactly like method grpo', async () => {
    const builtIn = await records(config('grpo'), cpuAdvantageEngine);
    const custom = await records(config('custom'), createCustomAdvantageEngine(nodeEstimatorSandbox(GRPO_TEMPLATE), GRPO_TEMPLATE));
    expect(custom).toHaveLength(3);
    expect(custom).toEqual(builtIn);
  }, 60_000);

  it('a different rule trains differently (the sandbox is really consulted)', async () => {
    const builtIn = await records(config('grpo'), cpuAdvantageEngine);
    const custom = await records(config('custom'), createCustomAdvantageEngine(nodeEstimatorSandbox(MILESTONE_SEGMENTS_TEMPLATE), MILESTONE_SEGMENTS_TEMPLATE));
    expect(custom[0].policyLoss).not.toEqual(builtIn[0].policyLoss);
  }, 60_000);

  it('keeps the tensor count flat between iterations', async () => {
    const run = new TrainingRun({ ...config('custom'), iters: 6 }, createCustomAdvantageEngine(nodeEstimatorSandbox(GRPO_TEMPLATE), GRPO_TEMPLATE));
    const counts: number[] = [];
    await run.run(() => {
      counts.push(tf.memory().numTensors);
    });
    run.dispose();
    expect(counts.slice(2).every((n) => n === counts[2])).toBe(true);
  }, 60_000);
});
