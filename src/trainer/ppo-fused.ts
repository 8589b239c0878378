/**
 * The PPO update of ppo.ts on webgpu as seven WGSL kernels per minibatch (src/gpu/fused-ppo.ts)
 * instead of about 140 tfjs ops: the same loss, gradients, clipping and Adam step, up to float32
 * rounding, on minibatches the GPU draws from a key (src/gpu/minibatch-permutation.ts; behaviour
 * cloning's keep the host's order, `fusedMinibatches`).
 *
 * The policy's and Adam's tfjs variables stay the state: their own GPU buffers are read and written
 * in place (webgpu-interop.ts `ownGpuBuffer`), so checkpoints, the SFT prior, the backend switch and
 * the acting pass see the updated weights as before. The batch's per-step rows are written to the
 * device once per update (not once per minibatch), the advantages and candidate rows are read where
 * they already are, and the statistics stay on the device for the iteration's read-back
 * (iteration-read-back.ts), so an update is one submit and no read-back of its own.
 */
import * as tf from '@tensorflow/tfjs-core';
import { flushTfjsQueue, markWrittenOnGpu, ownGpuBuffer, tensorGpuBuffer } from '../backend/webgpu-interop.ts';
import { FusedPpoKernels, fusedPpoRefusal, type FusedMinibatch, type FusedPpoBatch, type FusedPpoShape, type FusedPpoSettings } from '../gpu/fused-ppo.ts';
import type { FusedPpoTargets } from '../gpu/fused-ppo.ts';
import { minibatchPermutation, type PermutationKey, permutationSlices } from '../gpu/minibatch-permutation.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import { type Minibatch, minibatchOrder } from './minibatches.ts';
import type { AdamInternals } from '../backend/webgpu-adam.ts';
import { NonFiniteLossError, type PendingPpoStats, type PpoBatch, type PpoSettings } from './ppo.ts';

/** The minibatches of one update and every epoch's order of the steps, drawn from `rng` as ppo.ts draws them. */
export function fusedMinibatches(
  steps: number,
  settings: Pick<PpoSettings, 'epochs' | 'minibatches'>,
  rng: Rng,
): { perm: Uint32Array; minibatches: FusedMinibatch[] } {
  const perm = new Uint32Array(steps * settings.epochs);
  const minibatches: FusedMinibatch[] = [];
  let epochSeen = -1;
  for (const { indices, epoch } of minibatchOrder(steps, settings.epochs, settings.minibatches, rng)) {
    if (epoch !== epochSeen) {
      perm.set(new Int32Array(indices.buffer, 0, steps), epoch * steps); // the epoch's whole shuffled order
      epochSeen = epoch;
    }
    minibatches.push({ offset: epoch * steps + indices.byteOffset / 4, size: indices.length });
  }
  return { perm, minibatches };
}

/**
 * The PPO update's minibatches on webgpu: a key from one draw of `rng` (the update stream), from which
 * the GPU draws every epoch's order (minibatch-permutation.ts), and the slices of that order.
 */
export function gpuMinibatches(
  steps: number,
  settings: Pick<PpoSettings, 'epochs' | 'minibatches'>,
  rng: Rng,
): { key: PermutationKey; minibatches: FusedMinibatch[] } {
  return { key: { key0: rng.seed, key1: rng.nextUint32() }, minibatches: permutationSlices(steps, settings.epochs, settings.minibatches) };
}

/** The step indices of `gpuMinibatches`' minibatches, from the permutation's CPU twin (the tfjs-ops reference's order in tests). */
export function* gpuMinibatchOrder(steps: number, settings: Pick<PpoSettings, 'epochs' | 'minibatches'>, key: PermutationKey): Generator<Minibatch> {
  const perm = Int32Array.from(minibatchPermutation(steps, settings.epochs, key));
  for (const { offset, size } of permutationSlices(steps, settings.epochs, settings.minibatches))
    yield { indices: perm.subarray(offset, offset + size), epoch: Math.floor(offset / steps) };
}

/**
 * The fused update's view of a batch: its host arrays, its candidate features and advantages read
 * where they are on the GPU (the batch outlives the submit; the advantages are the estimator's own
 * output buffer), the rollout's records where it left them. tfjs's queue is flushed, so the uploads
 * and work it recorded so far run before the update reads the buffers.
 */
export function fusedBatchOf(batch: PpoBatch, perm: FusedPpoBatch['perm']): FusedPpoBatch {
  // The GPU rollout's dictionary holds the same rows as batch.candidates, in the same order (checked
  // against the replay's count by gpu-rollout.ts): read there, the host writes neither.
  const gpu = batch.records?.candidates;
  const features = gpu ? gpu.features : tensorGpuBuffer(batch.candidates);
  const advantages = tensorGpuBuffer(batch.advantages);
  flushTfjsQueue(); // after tensorGpuBuffer: tfjs records a CPU-held tensor's upload in its queue
  return {
    numSteps: batch.advantages.shape[0],
    // Read only where the rollout's records are absent (fused-ppo.ts writes them then).
    get obs() {
      return batch.obs;
    },
    rows: gpu ? NO_ROWS : candidateRowsMasked(batch),
    get actions() {
      return batch.actions;
    },
    get oldLogProbs() {
      return batch.oldLogProbs;
    },
    features,
    numRows: gpu ? gpu.numRows : batch.candidates.shape[0],
    advantages,
    perm,
    ...(batch.records ? { records: batch.records } : {}),
  };
}

/** Adam's settings as the fused kernels take them, from a tfjs Adam (its learning rate as it is now). */
export function adamSettings(adam: AdamInternals): Pick<FusedPpoSettings, 'learningRate' | 'beta1' | 'beta2' | 'epsilon'> {
  return { learningRate: adam.learningRate, beta1: adam.beta1, beta2: adam.beta2, epsilon: adam.epsilon };
}

const NO_ROWS = new Int32Array(0);

/** Each (step, candidate)'s distinct candidate row, −1 where inadmissible. */
function candidateRowsMasked(batch: Pick<PpoBatch, 'candidateRows' | 'mask'>): Int32Array {
  const rows = new Int32Array(batch.candidateRows.length);
  for (let i = 0; i < rows.length; i++) rows[i] = batch.mask[i] ? batch.candidateRows[i] : -1;
  return rows;
}

export class FusedPpoUpdate {
  readonly kernels: FusedPpoKernels;

  constructor(shaders: ShaderSources, device: GPUDevice) {
    this.kernels = new FusedPpoKernels(device, shaders);
  }

  /** Why this batch must take the tfjs-ops update instead (sizes over the kernels' limits), or null. */
  refusal(policy: Policy, batch: PpoBatch, settings: PpoSettings): string | null {
    const steps = batch.advantages.shape[0];
    const slices = Math.max(1, Math.min(settings.minibatches, steps));
    return fusedPpoRefusal(
      this.shape(policy, batch),
      steps,
      batch.numRows ?? batch.candidates.shape[0],
      settings.epochs,
      Math.ceil(steps / slices),
      this.kernels.device,
    );
  }

  /**
   * The update, queued in one submit, its statistics left on the device (as ppo.ts
   * `ppoUpdateDeferred`): settle restores the weights from before the update and throws
   * NonFiniteLossError on a non-finite loss.
   */
  async updateDeferred(policy: Policy, optimizer: tf.AdamOptimizer, batch: PpoBatch, settings: PpoSettings, rng: Rng): Promise<PendingPpoStats> {
    const adam = optimizer as unknown as AdamInternals;
    const shape = this.shape(policy, batch);
    // The minibatches' order is drawn on the GPU from one draw of the update stream (ppo.ts shuffles
    // on the host instead, so webgpu's orders differ from wasm's; both are seeded permutations).
    const { key, minibatches } = gpuMinibatches(batch.advantages.shape[0], settings, rng);
    const { targets, written } = fusedTargets(policy.variables, adam);
    const fusedBatch = fusedBatchOf(batch, { key, epochs: settings.epochs });
    const fusedSettings: FusedPpoSettings = { ...settings, ...adamSettings(adam) };
    let dataId: object | null = null;
    const run = await this.kernels.update(
      shape,
      fusedBatch,
      minibatches,
      fusedSettings,
      targets,
      () => dataId !== null && tf.engine().backend.refCount(dataId as tf.DataId) === 0,
    );
    const statsTensor = tf.tensor({ buffer: run.stats, zeroCopy: true }, [5], 'float32') as tf.Tensor1D;
    dataId = statsTensor.dataId;
    for (const v of written) markWrittenOnGpu(v);
    for (let i = 0; i < minibatches.length; i++) adam.incrementIterations();
    try {
      await run.errors;
    } catch (e) {
      statsTensor.dispose();
      throw e;
    }
    return this.pending(statsTensor, policy, shape);
  }

  /** Lets go of the kernels' buffers between updates (fused-ppo.ts `trim`): the next update makes what it needs. */
  trim(): void {
    this.kernels.trim();
  }

  dispose(): void {
    this.kernels.dispose();
  }

  private shape(policy: Policy, batch: PpoBatch): FusedPpoShape {
    const { obsDim, actionDim, hiddenSize } = policy.shape;
    return { obsDim, actionDim, hiddenSize, numActions: batch.numActions };
  }

  private pending(tensor: tf.Tensor1D, policy: Policy, shape: FusedPpoShape): PendingPpoStats {
    let open = true;
    const close = () => {
      if (!open) throw new Error('PendingPpoStats: settled or abandoned twice');
      open = false;
      tensor.dispose();
    };
    return {
      tensor,
      settle: (values) => {
        close();
        const [policyLoss, entropy, approxKl, clipFraction, gradNorm] = Array.from(values);
        if (![policyLoss, entropy, approxKl, gradNorm].every(Number.isFinite)) {
          flushTfjsQueue();
          this.kernels.restoreWeights(shape, policy.variables.map(ownGpuBuffer)); // leave the last good weights
          for (const v of policy.variables) markWrittenOnGpu(v);
          throw new NonFiniteLossError(
            `non-finite loss (policyLoss=${policyLoss}, entropy=${entropy}, approxKl=${approxKl}, gradNorm=${gradNorm}); weights restored to before this update`,
          );
        }
        return { policyLoss, entropy, approxKl, clipFraction, gradNorm };
      },
      abandon: close,
    };
  }
}

/**
 * What a fused update writes in place: the network's variables (the policy's, or the critic's) and
 * Adam's state (its moments made here on first use, as tfjs's Adam makes them), each made the only
 * owner of its data. `written`: the variables to `markWrittenOnGpu` once the update is submitted.
 */
export function fusedTargets(variables: readonly tf.Variable[], adam: AdamInternals): { targets: FusedPpoTargets; written: tf.Variable[] } {
  const moments = variables.map((v, i) => {
    adam.accumulatedFirstMoment[i] ??= { originalName: `${v.name}/m`, variable: tf.tidy(() => tf.zerosLike(v).variable(false)) };
    adam.accumulatedSecondMoment[i] ??= { originalName: `${v.name}/v`, variable: tf.tidy(() => tf.zerosLike(v).variable(false)) };
    return [adam.accumulatedFirstMoment[i]!.variable, adam.accumulatedSecondMoment[i]!.variable];
  });
  const written = [...variables, ...moments.flat(), adam.accBeta1, adam.accBeta2];
  for (const v of written) ownData(v);
  const targets = {
    weights: variables.map(ownGpuBuffer),
    firstMoments: moments.map(([m]) => ownGpuBuffer(m)),
    secondMoments: moments.map(([, v]) => ownGpuBuffer(v)),
    accBeta1: ownGpuBuffer(adam.accBeta1),
    accBeta2: ownGpuBuffer(adam.accBeta2),
  };
  return { targets, written };
}

/**
 * Makes `v` the only owner of its data, so that writing its buffer in place changes `v` alone: a
 * variable shares its data after `assign` from a tensor that is still alive, or after `tf.clone`.
 * The copy is exact (× 1).
 */
function ownData(v: tf.Variable): void {
  if (tf.engine().backend.refCount(v.dataId) > 1) tf.tidy(() => v.assign(tf.mul(v, 1)));
}
