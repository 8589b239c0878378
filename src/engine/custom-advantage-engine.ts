/**
 * The advantage engine of the custom method: the visitor's estimator, run by a sandbox (a worker in the
 * page's sandboxed estimator frame, a worker thread in Node; src/estimator/sandbox-host.ts), gives one advantage per step.
 * Its parts are empty (the visitor's rule has none we could name), so the credit view shows A alone.
 *
 * The engine adds the estimator's source to the trainer's checkpoints (part `estimator`), so a run file
 * carries the code it was trained with, and a run is never continued with other code.
 */
import * as tf from '@tensorflow/tfjs-core';
import { estimatorSettings } from '../estimator/custom-settings.ts';
import type { EstimatorRunner } from '../estimator/sandbox-host.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { AdvantageEngine } from './engine.ts';
import { ESTIMATOR_PART, savedEstimatorSource } from '../estimator/saved-source.ts';
import { StateError, type StatePart } from '../state/state-part.ts';

export { ESTIMATOR_PART, savedEstimatorSource };

function estimatorPart(source: string): StatePart {
  return {
    save: () => Promise.resolve({ json: { source }, arrays: {} }),
    load: (state) => {
      const saved = savedEstimatorSource({ parts: { [ESTIMATOR_PART]: state } });
      if (saved === null) return Promise.reject(new StateError('estimator: the saved run carries no estimator code'));
      if (saved !== source)
        return Promise.reject(
          new StateError(
            'estimator: this run was trained with other estimator code than the code given now; a run continues only with its own code (open it without new code, or start a new run)',
          ),
        );
      return Promise.resolve();
    },
  };
}

/**
 * An engine over `runner`, which runs `source`; disposing the engine disposes the runner (its worker).
 * `shaders`: the WGSL sources on the webgpu backend, so that the rollout runs on the GPU
 * (src/trainer/collector-choice.ts); the visitor's estimator itself always runs on the CPU.
 */
export function createCustomAdvantageEngine(runner: EstimatorRunner, source: string, shaders?: ShaderSources): AdvantageEngine {
  return {
    name: 'cpu',
    ...(shaders ? { shaders } : {}),
    parts: { [ESTIMATOR_PART]: estimatorPart(source) },
    async compute(batch, settings) {
      const advantages = await runner.estimate(batch, estimatorSettings(settings));
      const runs = batch.runOffsets.length - 1;
      const steps = advantages.length;
      const result = {
        advantages,
        trajectoryAdvantages: new Float64Array(runs),
        segmentAdvantages: new Float64Array(steps),
        shapedRewards: new Float64Array(steps),
      };
      return { tensor: tf.tensor1d(Float32Array.from(advantages)), result };
    },
    dispose() {
      runner.dispose();
    },
  };
}
