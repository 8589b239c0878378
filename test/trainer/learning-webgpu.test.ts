/**
 * BEACON learns on webgpu at the page defaults as it does on wasm: GridHouse long, 8 × 8 runs, width 64,
 * the auto SFT prior, with the rollout on the GPU (WGSL environments, acting pass and sampling) and the
 * update on tfjs's webgpu backend. Within 8 iterations the batch's success rate rises past 40%.
 *
 * On wasm the same settings pass for seeds 1–5 (success past 40% by iteration 3–5; measured with the
 * trainer, 2026-12-01). Webgpu samples from its own counter-based generator and draws its minibatches
 * from a keyed permutation (src/gpu/minibatch-permutation.ts), so its runs differ from wasm's draw for
 * draw; what must hold is the learning, not the trajectory. Measured on SwiftShader (2026-12-02, the
 * fused update, the whole-episode rollout, the GPU permutation): seed 2 goes 0, 0, 0.03, 0.16, 0.52,
 * 0.56, 0.73, 0.86 over iterations 1–8 (past 40% at iteration 5), with 34 dispatches, 4 submits and 2
 * read-backs per steady iteration (the same with the batch gathered on the GPU), 109–123 s in all on
 * an otherwise idle 2-core machine. One seed, one test: on SwiftShader an iteration's seconds depend
 * on the machine's load, hence the hour's limit.
 *
 * The test also checks that the run really is the GPU path, through the WebGPU API itself: the
 * collector is the GPU rollout, and each steady iteration keeps to the GPU-native iteration's targets
 * at the page defaults (at most 40 compute dispatches and 10 submits) and to at most 2 buffer
 * read-backs (the rollout's, and the one at the end of the iteration for the metrics:
 * src/trainer/iteration-read-back.ts).
 *
 * The run stops at the first iteration past the target (the claim is "within 8"), so the call counts are
 * checked on every steady iteration up to it (iterations 2–5 for seed 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { rolloutPath } from '../../src/trainer/collector-choice.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

const ITERATIONS = 8;
const TARGET_SUCCESS = 0.4;

describe('BEACON learns on webgpu at the page defaults', () => {
  it(`success rises past ${TARGET_SUCCESS * 100}% within ${ITERATIONS} iterations, on the GPU path`, { timeout: 3_600_000 }, async () => {
    const config: TrainConfig = { ...DEFAULT_CONFIG, ...PAGE_DEFAULT_CONFIG, method: 'beacon', backend: 'webgpu', seed: 2, iters: ITERATIONS };
    expect([config.env, config.horizon, config.tasksPerIteration, config.groupSize, config.hiddenSize]).toEqual(['gridhouse', 'long', 8, 8, 64]);
    const engine = createAdvantageEngine('webgpu', 'beacon', readShaderSources);
    const run = new TrainingRun(config, engine);
    const successes: number[] = [];
    try {
      expect(rolloutPath(run.trainer.env, run.trainer.policy, engine)).toEqual({ path: 'gpu', reason: 'webgpu' });
      await run.trainer.ready(); // the SFT prior, before the counted iterations
      for (let i = 1; i <= ITERATIONS; i++) {
        const before = counter.read();
        const record = await run.step();
        const calls = callsBetween(before, counter.read());
        expect(record, run.halted ?? 'no record').not.toBeNull();
        successes.push(record!.success);
        console.log(
          `iteration ${i}: success ${record!.success.toFixed(3)}, ${calls.dispatches} dispatches, ${calls.submits} submits, ${calls.readBacks} read-backs`,
        );
        expect(calls.readBacks).toBeLessThanOrEqual(2);
        // The GPU-native iteration's targets at the page defaults (the first iteration compiles and makes Adam's state).
        if (i > 1) {
          expect(calls.dispatches).toBeLessThanOrEqual(40);
          expect(calls.submits).toBeLessThanOrEqual(10);
        }
        // Past the target, the claim holds: the iterations left could only add time.
        if (record!.success > TARGET_SUCCESS) break;
      }
    } finally {
      run.dispose();
    }
    expect(Math.max(...successes)).toBeGreaterThan(TARGET_SUCCESS);
  });
});
