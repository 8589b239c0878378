/**
 * Critic PPO's value network (docs/maths.md §8): the network, its optimiser and its minibatch stream,
 * and on webgpu its kernels (critic-fused.ts), which take a rollout unless its sizes are over their
 * limits (then the tfjs ops do, critic-update.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { createAdam } from '../backend/webgpu-adam.ts';
import type { TrainConfig } from '../config.ts';
import { Critic } from '../policy/critic.ts';
import type { Rng } from '../prng.ts';
import type { FusedCriticUpdate } from './critic-fused.ts';
import { criticUpdate } from './critic-update.ts';
import { rolloutSteps, type Rollout } from './rollout.ts';

export class CriticLearner {
  readonly net: Critic;
  readonly optimizer: tf.AdamOptimizer;

  /** `init`: the network's initial weights' stream; `rng`: its minibatches'. */
  constructor(
    private readonly obsDim: number,
    config: TrainConfig,
    init: Rng,
    readonly rng: Rng,
    private readonly fused: FusedCriticUpdate | null,
  ) {
    this.net = new Critic(obsDim, config.hiddenSize, init);
    this.optimizer = createAdam(config.learningRate);
  }

  /** The kernels, where they take this rollout. */
  private fusedFor(rollout: Rollout, config: TrainConfig): FusedCriticUpdate | null {
    return this.fused && this.fused.refusal(this.net, this.obsDim, rolloutSteps(rollout), config) === null ? this.fused : null;
  }

  /** V(s_t) for every step of a rollout: one forward pass. */
  async values(rollout: Rollout, config: TrainConfig): Promise<Float32Array> {
    const fused = this.fusedFor(rollout, config);
    if (fused) return fused.values(this.net, rollout);
    const v = tf.tidy(() => this.net.values(tf.tensor2d(rollout.obs, [rolloutSteps(rollout), this.obsDim])));
    const out = (await v.data()) as Float32Array;
    v.dispose();
    return out;
  }

  /** The regression towards the returns R̂_t; resolves to its loss. */
  update(rollout: Rollout, returns: Float64Array, config: TrainConfig): Promise<number> {
    const fused = this.fusedFor(rollout, config);
    if (fused) return fused.update(this.net, this.optimizer, rollout, returns, config, this.rng);
    return criticUpdate(this.net, this.optimizer, rollout.obs, returns, config, this.rng);
  }

  /** Lets go of the fused kernels' buffers between iterations (the network's weights stay). */
  trim(): void {
    this.fused?.trim();
  }

  dispose(): void {
    this.net.dispose();
    this.optimizer.dispose();
    this.fused?.dispose();
  }
}
