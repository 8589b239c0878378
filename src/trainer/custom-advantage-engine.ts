/**
 * The advantage engine of the custom method: the visitor's estimator, run by a sandbox (a nested worker
 * in the page, a worker thread in Node; src/estimator/sandbox-host.ts), gives one advantage per step.
 * Its parts are empty (the visitor's rule has none we could name), so the credit view shows A alone.
 */
import * as tf from '@tensorflow/tfjs-core';
import { estimatorSettings } from '../estimator/custom-settings.ts';
import type { EstimatorRunner } from '../estimator/sandbox-host.ts';
import type { AdvantageEngine } from './engine.ts';

/** An engine over `runner`; disposing the engine disposes the runner (its worker). */
export function createCustomAdvantageEngine(runner: EstimatorRunner): AdvantageEngine {
  return {
    name: 'cpu',
    async compute(batch, settings) {
      const advantages = await runner.estimate(batch, estimatorSettings(settings));
      const runs = batch.runOffsets.length - 1;
      const steps = advantages.length;
      const result = { advantages, trajectoryAdvantages: new Float64Array(runs), segmentAdvantages: new Float64Array(steps), shapedRewards: new Float64Array(steps) };
      return { tensor: tf.tensor1d(Float32Array.from(advantages)), result };
    },
    dispose() {
      runner.dispose();
    },
  };
}
