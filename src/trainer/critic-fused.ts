/**
 * Critic PPO's value network on webgpu as WGSL kernels (src/gpu/fused-critic.ts) instead of tfjs ops:
 * V_old for GAE in one dispatch (one more to gather the observations where the GPU rollout left
 * them), and the regression of critic-update.ts in one submit, its minibatches drawn on the GPU from
 * one draw of the critic's stream (as the fused policy update draws its own; the tfjs-ops update
 * shuffles on the host, so webgpu's orders differ from wasm's: both are seeded permutations).
 *
 * The critic's tfjs variables stay its state, their buffers read and written in place, so
 * checkpoints and the backend switch see the updated weights as before.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { AdamInternals } from '../backend/webgpu-adam.ts';
import { flushTfjsQueue, markWrittenOnGpu, tensorGpuBuffer } from '../backend/webgpu-interop.ts';
import { type CriticObs, type CriticShape, FusedCriticKernels, fusedCriticRefusal } from '../gpu/fused-critic.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { Critic } from '../policy/critic.ts';
import type { Rng } from '../prng.ts';
import type { CriticSettings } from './critic-update.ts';
import { adamSettings, fusedTargets, gpuMinibatches } from './ppo-fused.ts';
import type { Rollout } from './rollout.ts';

export class FusedCriticUpdate {
  readonly kernels: FusedCriticKernels;

  constructor(shaders: ShaderSources, device: GPUDevice) {
    this.kernels = new FusedCriticKernels(device, shaders);
  }

  /** Why a batch of `steps` steps must take the tfjs ops instead (sizes over the kernels' limits), or null. */
  refusal(critic: Critic, obsDim: number, steps: number, settings: Pick<CriticSettings, 'epochs' | 'minibatches'>): string | null {
    const slices = Math.max(1, Math.min(settings.minibatches, steps));
    return fusedCriticRefusal(this.shape(critic, obsDim), steps, settings.epochs, Math.ceil(steps / slices), this.kernels.device);
  }

  /** V(s_t) for every step of `rollout`. */
  async values(critic: Critic, rollout: Pick<Rollout, 'obs' | 'actions' | 'gpuRecords'>): Promise<Float32Array> {
    const obsDim = rollout.obs.length / rollout.actions.length;
    const weights = critic.variables.map(tensorGpuBuffer);
    flushTfjsQueue(); // after tensorGpuBuffer: tfjs records a CPU-held variable's upload in its queue
    return this.kernels.values(this.shape(critic, obsDim), observations(rollout), rollout.actions.length, weights);
  }

  /** The critic's regression towards `returns` (critic-update.ts's, on the GPU); resolves to the last epoch's mean loss. */
  async update(
    critic: Critic,
    optimizer: tf.AdamOptimizer,
    rollout: Pick<Rollout, 'obs' | 'actions' | 'gpuRecords'>,
    returns: Float64Array,
    settings: CriticSettings,
    rng: Rng,
  ): Promise<number> {
    const adam = optimizer as unknown as AdamInternals;
    const steps = returns.length;
    const { key, minibatches } = gpuMinibatches(steps, settings, rng);
    const { targets, written } = fusedTargets(critic.variables, adam);
    flushTfjsQueue(); // the moments made above, and any tfjs write to the variables, land first
    const loss = await this.kernels.update(
      this.shape(critic, rollout.obs.length / rollout.actions.length),
      observations(rollout),
      Float32Array.from(returns),
      key,
      minibatches,
      { ...settings, ...adamSettings(adam) },
      targets,
    );
    for (const v of written) markWrittenOnGpu(v);
    for (let i = 0; i < minibatches.length; i++) adam.incrementIterations();
    return loss;
  }

  /** Lets go of the kernels' buffers between updates (fused-critic.ts `trim`): the next update makes what it needs. */
  trim(): void {
    this.kernels.trim();
  }

  dispose(): void {
    this.kernels.dispose();
  }

  private shape(critic: Critic, obsDim: number): CriticShape {
    return { obsDim, hiddenSize: critic.hiddenSize };
  }
}

/** The rollout's observations where they are: on the GPU when it left its records there. */
function observations(rollout: Pick<Rollout, 'obs' | 'gpuRecords'>): CriticObs {
  return rollout.gpuRecords ? { records: rollout.gpuRecords } : { host: rollout.obs };
}
