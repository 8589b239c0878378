/**
 * The policy: scores each candidate action against the observation.
 *
 *   h = tanh(tanh(obs · W1 + b1) · W2 + b2)                      observation embedding   [M, H]
 *   e = tanh(feat · V1 + c1) · V2 + c2                           candidate embeddings    [K, H]
 *   logits[m, a] = (h[m] · e[row(m, a)]) / √H, masked to −1e9 where inadmissible          [M, A]
 *
 * One design serves every environment: candidates are described by feature vectors, so the same weights
 * generalise across text commands. Candidates arrive deduplicated (candidate-table.ts): the tower embeds
 * the K distinct feature rows once, h · eᵀ scores every step against every distinct row in one matmul,
 * and each (step, candidate) pair picks its score. This is the same function of the weights as embedding
 * every pair; only the work differs. Backend-agnostic tfjs; weights drawn from the run's seeded Rng.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Rng } from '../prng.ts';
import { dense } from './dense.ts';
import { pick } from './pick.ts';
import { createTower, type Tower } from './tower.ts';

/** A policy's weights as plain arrays, in `Policy.variables` order. */
export type PolicyWeights = Float32Array[];

export interface PolicyShape {
  obsDim: number;
  actionDim: number;
  hiddenSize: number;
}

/** One forward pass's inputs: M steps, A candidates each, K distinct candidate rows. */
export interface PolicyInput {
  obs: tf.Tensor2D; // [M, obsDim]
  candidates: tf.Tensor2D; // [K, actionDim] distinct candidate feature rows
  pick: tf.Tensor1D; // [M·A] int32: m·K + row of (m, a), see pickIndices
  mask: tf.Tensor2D; // [M, A] bool: admissible
}

/** Logit given to inadmissible candidates: exp underflows to exactly 0 in float32. */
const MASKED_LOGIT = -1e9;

/** The observation tower's layout, exported so a value network can build the same tower (docs/maths.md §8). */
export const observationTowerSpec = (obsDim: number, hiddenSize: number) => ({
  names: [{ weight: 'w1', bias: 'b1' }, { weight: 'w2', bias: 'b2' }],
  sizes: [obsDim, hiddenSize, hiddenSize],
  finalTanh: true,
});

export class Policy {
  readonly shape: PolicyShape;
  readonly variables: tf.Variable[];
  readonly observationTower: Tower;
  private readonly candidateTower: Tower;

  constructor(shape: PolicyShape, rng: Rng) {
    this.shape = shape;
    const { obsDim, actionDim, hiddenSize: h } = shape;
    this.observationTower = createTower(observationTowerSpec(obsDim, h), rng);
    this.candidateTower = createTower(
      { names: [{ weight: 'v1', bias: 'c1' }, { weight: 'v2', bias: 'c2' }], sizes: [actionDim, h, h], finalTanh: false },
      rng,
    );
    this.variables = [...this.observationTower.variables, ...this.candidateTower.variables];
  }

  /** Masked logits [M, A]. */
  logits(input: PolicyInput): tf.Tensor2D {
    return tf.tidy(() => {
      const [m, a] = input.mask.shape;
      const h = this.observationTower.apply(input.obs);
      const e = this.candidateTower.apply(input.candidates);
      const all = tf.reshape(dense(h, tf.transpose(e)), [-1]) as tf.Tensor1D; // [M·K]
      const scores = tf.mul(tf.reshape(pick(all, input.pick), [m, a]), 1 / Math.sqrt(this.shape.hiddenSize));
      return tf.where(input.mask, scores, tf.fill([m, a], MASKED_LOGIT)) as tf.Tensor2D;
    });
  }

  /** Copies of the current weights (to restore after a failed update). */
  snapshot(): tf.Tensor[] {
    return this.variables.map((v) => tf.clone(v));
  }

  /** Restores weights from a snapshot and disposes it. */
  restore(snapshot: tf.Tensor[]): void {
    this.variables.forEach((v, i) => v.assign(snapshot[i]));
    tf.dispose(snapshot);
  }

  /** Overwrites every weight (in `variables` order), e.g. with an SFT prior's. */
  setWeights(weights: PolicyWeights): void {
    if (weights.length !== this.variables.length) throw new RangeError(`setWeights: expected ${this.variables.length} arrays, got ${weights.length}`);
    tf.tidy(() => this.variables.forEach((v, i) => v.assign(tf.tensor(weights[i], v.shape))));
  }

  /** Weights as plain arrays (for equality checks and export). */
  async weights(): Promise<PolicyWeights> {
    return Promise.all(this.variables.map(async (v) => (await v.data()) as Float32Array));
  }

  dispose(): void {
    tf.dispose(this.variables);
  }
}
