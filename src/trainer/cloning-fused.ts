/**
 * Behaviour cloning (behaviour-cloning.ts, docs/maths.md §9) on webgpu through the fused update's
 * kernels (src/gpu/fused-ppo.ts) with the cloning loss: seven dispatches per minibatch instead of about
 * a hundred tfjs ops, every minibatch of every epoch recorded into one submit, the statistics read back
 * once at the end. The same minibatches (drawn from the rng as minibatchOrder draws them), the same
 * loss, gradients, clipping and Adam step as the tfjs ops, up to float32 rounding (a test checks).
 *
 * As for PPO (ppo-fused.ts), the policy's and Adam's tfjs variables stay the state and are written in
 * place, so the prior's weights, checkpoints and the acting pass see them as before.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { AdamInternals } from '../backend/webgpu-adam.ts';
import { markWrittenOnGpu } from '../backend/webgpu-interop.ts';
import { type FusedPpoKernels, fusedPpoRefusal, type FusedPpoShape } from '../gpu/fused-ppo.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import { adamSettings, fusedBatchOf, fusedMinibatches, fusedTargets } from './ppo-fused.ts';
import type { PpoBatch } from './ppo.ts';

/** What the fused cloning reads of behaviour-cloning.ts's CloningSettings. */
export interface FusedCloningSettings {
  epochs: number;
  minibatches: number;
  maxGradNorm: number;
}

function shapeOf(policy: Policy, batch: PpoBatch): FusedPpoShape {
  const { obsDim, actionDim, hiddenSize } = policy.shape;
  return { obsDim, actionDim, hiddenSize, numActions: batch.numActions };
}

/** Minibatches per epoch, as minibatchOrder cuts `steps`. */
function slicesOf(steps: number, settings: FusedCloningSettings): number {
  return Math.max(1, Math.min(settings.minibatches, steps));
}

/**
 * Why this cloning must take the tfjs ops instead, or null: an optimiser other than Adam (whose state
 * the kernels update), or sizes over the kernels' limits.
 */
export function fusedCloningRefusal(
  kernels: FusedPpoKernels,
  policy: Policy,
  optimizer: tf.Optimizer,
  batch: PpoBatch,
  settings: FusedCloningSettings,
): string | null {
  const adam = optimizer as unknown as Partial<AdamInternals>;
  if (!adam.accBeta1 || !adam.accumulatedFirstMoment) return 'the optimiser is not Adam';
  const steps = batch.actions.length;
  return fusedPpoRefusal(
    shapeOf(policy, batch),
    steps,
    batch.candidates.shape[0],
    settings.epochs,
    Math.ceil(steps / slicesOf(steps, settings)),
    kernels.device,
  );
}

/**
 * The cloning, submitted in one go; resolves with [cross-entropy, accuracy] over the last epoch's
 * minibatches, as behaviourCloning returns them. `optimizer`: an Adam (fusedCloningRefusal says).
 */
export async function fusedCloning(
  kernels: FusedPpoKernels,
  policy: Policy,
  optimizer: tf.Optimizer,
  batch: PpoBatch,
  settings: FusedCloningSettings,
  rng: Rng,
): Promise<{ loss: number; accuracy: number }> {
  const adam = optimizer as unknown as AdamInternals;
  const steps = batch.actions.length;
  const { perm, minibatches } = fusedMinibatches(steps, settings, rng);
  const { targets, written } = fusedTargets(policy.variables, adam);
  // Cloning keeps the host's order; the advantages are bound but not read.
  const fusedBatch = fusedBatchOf(batch, perm);
  let dataId: object | null = null;
  const run = await kernels.update(
    shapeOf(policy, batch),
    fusedBatch,
    minibatches,
    {
      clipRatio: 0,
      entropyCoef: 0,
      klCoef: 0,
      maxGradNorm: settings.maxGradNorm,
      ...adamSettings(adam),
      lossKind: 'cloning',
      statsOver: slicesOf(steps, settings),
    },
    targets,
    () => dataId !== null && tf.engine().backend.refCount(dataId as tf.DataId) === 0,
  );
  const stats = tf.tensor({ buffer: run.stats, zeroCopy: true }, [5], 'float32');
  dataId = stats.dataId;
  for (const v of written) markWrittenOnGpu(v);
  for (let i = 0; i < minibatches.length; i++) adam.incrementIterations();
  try {
    await run.errors;
    const [loss, accuracy] = Array.from(await stats.data());
    return { loss, accuracy };
  } finally {
    stats.dispose();
  }
}
