/**
 * The custom method on the command line: which estimator source a command runs (`--estimator FILE`,
 * or the code a resumed checkpoint carries) and its engine, with every inconsistency a UsageError
 * (exit 2) that names the flag.
 */
import type { TrainConfig } from '../src/config.ts';
import { createCustomAdvantageEngine, savedEstimatorSource } from '../src/engine/custom-advantage-engine.ts';
import type { AdvantageEngine } from '../src/engine/engine.ts';
import type { ShaderSources } from '../src/gpu/shader-source.ts';
import type { TrainerState } from '../src/trainer/trainer.ts';
import { methodSpec } from '../src/methods/registry.ts';
import { nodeEstimatorSandbox, readEstimatorSource } from './estimator-sandbox.ts';
import { UsageError } from './flags.ts';

export interface EstimatorFlagValues {
  estimator?: string;
  estimatorTimeout?: number;
}

/**
 * The source the run executes: the file of `--estimator`, else the code the checkpoint carries. A
 * resumed run keeps its code: a different file is refused.
 */
export function estimatorSource(
  config: TrainConfig,
  flags: EstimatorFlagValues,
  state: Pick<TrainerState, 'parts'> | null,
  checkpointPath?: string,
): string | null {
  const runsCode = methodSpec(config.method).visitorCode === true;
  const given = flags.estimator === undefined ? null : readEstimatorSource(flags.estimator);
  const saved = state ? savedEstimatorSource(state) : null;
  if (!runsCode) {
    if (given !== null) throw new UsageError(`--estimator runs your own estimator, which is --method custom; this run's method is ${config.method}`);
    if (flags.estimatorTimeout !== undefined) throw new UsageError(`--estimatorTimeout needs --method custom (this run's method is ${config.method})`);
    return null;
  }
  if (saved !== null && given !== null && saved !== given) {
    throw new UsageError(
      `--estimator ${flags.estimator} is not the code checkpoint ${checkpointPath} was trained with; a resumed run continues only with its own code (leave --estimator out)`,
    );
  }
  const source = given ?? saved;
  if (source === null) throw new UsageError('--method custom needs --estimator FILE: an ES module whose default export is estimate(batch, settings)');
  return source;
}

/**
 * The custom method's engine for `source` with its module loaded (a failure to load throws an
 * EstimatorError). `shaders`: the WGSL sources on webgpu, for the GPU rollout.
 */
export async function customEngine(source: string, flags: EstimatorFlagValues, shaders?: ShaderSources): Promise<AdvantageEngine> {
  const sandbox = nodeEstimatorSandbox(source, flags.estimatorTimeout);
  try {
    await sandbox.load();
  } catch (e) {
    sandbox.dispose();
    throw e;
  }
  return createCustomAdvantageEngine(sandbox, source, shaders);
}
