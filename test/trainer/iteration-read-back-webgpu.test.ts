/**
 * One read-back at the end of a webgpu iteration (src/trainer/iteration-read-back.ts): with the GPU
 * rollout and the WGSL advantage kernels, a steady iteration maps exactly two buffers for reading,
 * counted through the WebGPU API itself (the rollout's records, and the advantage details read with
 * the PPO statistics), where reading the details eagerly costs three. The records equal the eager
 * path's, nothing leaks (tensors, kept GPU buffers), and a non-finite loss still restores the weights.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import type { AdvantageEngine } from '../../src/engine/engine.ts';
import { GpuAdvantageEstimator } from '../../src/gpu/advantage-estimator.ts';
import { batchToTensors } from '../../src/gpu/advantage-tensors.ts';
import { keepForLater, liveKeptBuffers, pendingRead, readTogether, tensorRead } from '../../src/gpu/pending-read.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { rolloutPath } from '../../src/trainer/collector-choice.ts';
import { TIMING_KEYS, type IterationRecord } from '../../src/trainer/iteration-record.ts';
import { NonFiniteLossError } from '../../src/trainer/ppo.ts';
import { CREDIT_METRIC_NAMES } from '../../src/metrics/credit-metrics.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
import type { BatchView } from '../../src/trainer/latest-batch.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { makeBatch } from '../support/batches.ts';
import { useWebGpuBackend, type WebGpuTestContext } from '../support/webgpu.ts';

let gpu: WebGpuTestContext;
let counter: WebGpuCallCounter;
beforeAll(async () => {
  gpu = await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

const small = (method: string): TrainConfig => ({
  ...DEFAULT_CONFIG,
  method: method as TrainConfig['method'],
  backend: 'webgpu',
  env: 'gridhouse',
  horizon: 'short',
  tasksPerIteration: 2,
  groupSize: 3,
  hiddenSize: 8,
  epochs: 1,
  minibatches: 2,
  sftEpisodes: 0,
});

/** The same engine without `computeDeferred`: the trainer reads the details eagerly, as before. */
const eager = (engine: AdvantageEngine): AdvantageEngine => ({
  name: engine.name,
  shaders: engine.shaders,
  compute: (batch, settings) => engine.compute(batch, settings),
  dispose: () => engine.dispose(),
});

const withoutTiming = (r: IterationRecord) => {
  const copy: Record<string, unknown> = { ...r };
  for (const k of TIMING_KEYS) delete copy[k];
  // Where the metrics ran differs on purpose (the GPU's against the eager engine's host), never why.
  expect(copy.fallback).toBeUndefined();
  delete copy.path;
  return copy;
};

/** `actual` is `expected` field for field, the metrics to 1e-6 relative. */
function expectSameRecord(actual: IterationRecord, expected: IterationRecord) {
  const a = withoutTiming(actual);
  const e = withoutTiming(expected);
  // The credit metrics, which the GPU sums in fixed point.
  for (const name of CREDIT_METRIC_NAMES) {
    const [x, y] = [a[name] as number, e[name] as number];
    if (Number.isNaN(y)) expect(x, name).toBeNaN();
    else expect(Math.abs(x - y), `${name}: ${x} against ${y}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(y)));
    delete a[name];
    delete e[name];
  }
  expect(a).toEqual(e);
}

/** Read-backs and record of one trainer step. */
async function countedStep(trainer: Trainer): Promise<{ readBacks: number; record: IterationRecord }> {
  const before = counter.read();
  const record = await trainer.step();
  return { readBacks: callsBetween(before, counter.read()).readBacks, record };
}

describe('one read-back at the end of a webgpu iteration', () => {
  it('keeps GPU values for later and reads several in one mapAsync', async () => {
    const { device } = gpu;
    const source = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    try {
      device.queue.writeBuffer(source, 0, Float32Array.of(1, 2, 3, 4));
      const kept = keepForLater(
        pendingRead(device, [[source, 3]], ([v]) => Array.from(v)),
        'test',
      );
      expect(liveKeptBuffers()).toBe(1);
      device.queue.writeBuffer(source, 0, Float32Array.of(9, 9, 9, 9)); // after the copy: not seen by `kept`
      const t = tf.tensor1d([0.5, -1.5]);
      const direct = pendingRead(device, [[source, 2]], ([v]) => Array.from(v));
      const before = counter.read();
      const [a, b, c] = await readTogether<[number[], Float32Array, number[]]>([kept, tensorRead(t), direct]);
      t.dispose();
      expect(callsBetween(before, counter.read()).readBacks).toBe(1);
      expect(a).toEqual([1, 2, 3]);
      expect(Array.from(b)).toEqual([0.5, -1.5]);
      expect(c).toEqual([9, 9]);
      expect(liveKeptBuffers()).toBe(0);
    } finally {
      source.destroy();
    }
  });

  it("deferred details outlive the advantages tensor and the next call's use of the kernels' buffers", async () => {
    const estimator = new GpuAdvantageEstimator(readShaderSources());
    const settings = { ...DEFAULT_ADVANTAGE_SETTINGS, method: 'beacon' };
    const switches = methodSpec('beacon').switches!;
    const first = makeBatch([
      [
        { reward: 1, milestones: [0, 1, 0, 1] },
        { reward: 0, milestones: [1, 0] },
      ],
    ]);
    const second = makeBatch([
      [
        { reward: 0, milestones: [1, 1, 1, 1, 1] },
        { reward: 1, milestones: [0, 0, 0] },
      ],
    ]);
    const tensors = tf.memory().numTensors;
    try {
      const run = async (batch: typeof first, details: true | 'deferred') => {
        const inputs = batchToTensors(batch);
        try {
          return await estimator.compute(inputs, settings, switches, { details });
        } finally {
          tf.dispose(Object.values(inputs));
        }
      };
      const a = await run(first, 'deferred');
      expect(a.details).toBeUndefined();
      a.advantages.dispose(); // its output buffer may now be lent again
      const b = await run(second, true); // same scratch buffers, same output buffer
      b.advantages.dispose();
      const before = counter.read();
      const [deferred] = await readTogether([a.pendingDetails!]);
      expect(callsBetween(before, counter.read()).readBacks).toBe(1);
      const reference = methodSpec('beacon').estimate(first, settings);
      for (const key of ['advantages', 'trajectoryAdvantages', 'segmentAdvantages', 'shapedRewards'] as const) {
        expect(deferred[key].length, key).toBe(reference[key].length);
        deferred[key].forEach((x, i) =>
          expect(Math.abs(x - reference[key][i]), `${key}[${i}]`).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(reference[key][i]))),
        );
      }
      expect(b.details!.advantages.length).toBe(second.milestones.length);
      expect(liveKeptBuffers()).toBe(0);
      expect(tf.memory().numTensors).toBe(tensors);
    } finally {
      estimator.dispose();
    }
  });

  /** `view`'s batch cut to `runs`, in that order: each per-step array's ranges of those runs, each per-run array's entries. */
  function sampleOf(view: BatchView, runs: readonly number[]) {
    const { runOffsets } = view.rollout;
    const S = runOffsets[runOffsets.length - 1];
    const inRuns = (a: ArrayLike<number>, width: number) => runs.flatMap((b) => Array.from(a).slice(runOffsets[b] * width, runOffsets[b + 1] * width));
    const perStepOrRun = (a: Float64Array) => Float64Array.from(a.length === S ? inRuns(a, 1) : runs.map((b) => a[b]));
    const { advantages, trajectoryAdvantages, segmentAdvantages, shapedRewards } = view.result;
    return {
      result: {
        advantages: perStepOrRun(advantages),
        trajectoryAdvantages: perStepOrRun(trajectoryAdvantages),
        segmentAdvantages: perStepOrRun(segmentAdvantages),
        shapedRewards: perStepOrRun(shapedRewards),
        ...(view.result.anchorCoverage === undefined ? {} : { anchorCoverage: view.result.anchorCoverage }),
      },
      steps: (field: 'actions' | 'stateKeys' | 'milestones' | 'obs') => inRuns(view.rollout[field], view.rollout[field].length / S),
    };
  }

  it.each(['beacon', 'grpo', 'gigpo'])(
    '%s: a steady iteration makes exactly 2 read-backs (eager details: 3), with the same records and no leaks; details nobody views stay on the GPU',
    async (method) => {
      const config = small(method);
      const deferredEngine = createAdvantageEngine('webgpu', method, readShaderSources);
      expect(deferredEngine.computeDeferred).toBeDefined();
      const deferred = new Trainer(config, deferredEngine);
      const reference = new Trainer(config, eager(createAdvantageEngine('webgpu', method, readShaderSources)));
      try {
        expect(rolloutPath(deferred.env, deferred.policy, deferredEngine).path).toBe('gpu');
        const counts: number[] = [];
        const referenceCounts: number[] = [];
        const tensors: number[] = [];
        for (let i = 1; i <= 3; i++) {
          // The second iteration's batch is wanted for the views: its details come in the same read-back.
          deferred.batchViewWanted = (iteration) => iteration === 2;
          const d = await countedStep(deferred);
          // Details nobody asked for stay on the GPU (one kept buffer) until the next iteration or a batchView.
          expect(liveKeptBuffers()).toBe(i !== 2 ? 1 : 0);
          expect(deferred.lastBatch === null).toBe(i !== 2);
          const r = await countedStep(reference);
          counts.push(d.readBacks);
          referenceCounts.push(r.readBacks);
          tensors.push(tf.memory().numTensors);
          // Same seed, same counter-based sampling on the same adapter: the same iteration; the metrics
          // computed on the GPU are the CPU's up to the fixed point's truncation (credit-metrics.ts).
          expectSameRecord(d.record, r.record);
          const before = counter.read();
          const view = (await deferred.batchView())!;
          // A batch nobody said it would view: its details were left on the GPU, one read-back (of the
          // sample's, where the views draw the rollout's checked sample).
          expect(callsBetween(before, counter.read()).readBacks, 'a batchView reads what was left on the GPU').toBe(i !== 2 ? 1 : 0);
          expect(liveKeptBuffers()).toBe(0);
          // Where the method's batch is read on the GPU alone (not GiGPO's: its step groups read the state
          // keys on the host) the views draw the checked sample: the reference's runs, steps and details.
          expect(view.sample !== undefined).toBe(method !== 'gigpo');
          const whole = reference.lastBatch!;
          const runs = view.sample?.runs ?? Array.from({ length: whole.rollout.numRuns }, (_, b) => b);
          const cut = sampleOf(whole, runs);
          expect(view.result).toEqual(cut.result);
          for (const field of ['actions', 'stateKeys', 'milestones', 'obs'] as const) expect(Array.from(view.rollout[field]), field).toEqual(cut.steps(field));
        }
        // Iteration 1 builds the optimiser's state and compiles pipelines; from the second on it is steady.
        expect(counts.slice(1)).toEqual([2, 2]);
        expect(referenceCounts.slice(1)).toEqual([3, 3]);
        expect(tensors.slice(1)).toEqual([tensors[0], tensors[0]]);
      } finally {
        deferred.dispose();
        reference.dispose();
      }
      expect(liveKeptBuffers()).toBe(0);
    },
    300_000,
  );

  it('a non-finite loss on the deferred path restores the weights and frees what was pending', async () => {
    const inner = createAdvantageEngine('webgpu', 'beacon', readShaderSources);
    // The kernels' advantages times NaN: the update diverges, which only the joint read-back reveals.
    let calls = 0;
    const poisoned: AdvantageEngine = {
      ...eager(inner),
      async computeDeferred(batch, settings, records) {
        const out = await inner.computeDeferred!(batch, settings, records);
        if (++calls === 1) return out; // the first update builds the optimiser's state
        const tensor = tf.tidy(() => tf.mul(out.tensor, Number.NaN) as tf.Tensor1D);
        out.tensor.dispose();
        return { tensor, details: out.details };
      },
    };
    const trainer = new Trainer(small('beacon'), poisoned);
    try {
      await trainer.step();
      const weights = await trainer.policy.weights();
      const tensors = tf.memory().numTensors;
      await expect(trainer.step()).rejects.toThrow(NonFiniteLossError);
      expect(await trainer.policy.weights()).toEqual(weights);
      expect(tf.memory().numTensors).toBe(tensors);
      expect(liveKeptBuffers()).toBe(0);
    } finally {
      trainer.dispose();
    }
  }, 120_000);
});
