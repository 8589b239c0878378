/**
 * The policy: scores each candidate action against the observation.
 *
 *   h = tanh(tanh(obs · W1 + b1) · W2 + b2)                      observation embedding   [B, H]
 *   e = tanh(feat · V1 + c1) · V2 + c2                           candidate embeddings    [B, A, H]
 *   logits = (e · h) / √H, masked to −1e9 where inadmissible     one score per candidate [B, A]
 *
 * One design serves every environment: candidates are described by feature vectors, so the same weights
 * generalise across text commands. Backend-agnostic tfjs; weights drawn from the run's seeded Rng.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Rng } from '../prng.ts';

/** A policy's weights as plain arrays, in `Policy.variables` order. */
export type PolicyWeights = Float32Array[];

export interface PolicyShape {
  obsDim: number;
  actionDim: number;
  hiddenSize: number;
}

/** Logit given to inadmissible candidates: exp underflows to exactly 0 in float32. */
const MASKED_LOGIT = -1e9;

export class Policy {
  readonly shape: PolicyShape;
  readonly variables: tf.Variable[];
  private readonly w1: tf.Variable;
  private readonly b1: tf.Variable;
  private readonly w2: tf.Variable;
  private readonly b2: tf.Variable;
  private readonly v1: tf.Variable;
  private readonly c1: tf.Variable;
  private readonly v2: tf.Variable;
  private readonly c2: tf.Variable;

  constructor(shape: PolicyShape, rng: Rng) {
    this.shape = shape;
    const { obsDim, actionDim, hiddenSize: h } = shape;
    const glorot = (name: string, rows: number, cols: number) => {
      const limit = Math.sqrt(6 / (rows + cols));
      const values = Float32Array.from({ length: rows * cols }, () => (rng.nextFloat() * 2 - 1) * limit);
      // tidy frees the initial tensor; the variable keeps its data (tf.variable alone leaks one tensor each).
      return tf.tidy(() => tf.variable(tf.tensor2d(values, [rows, cols]), true, `${name}_${uniqueId()}`));
    };
    const zeros = (name: string, n: number) => tf.tidy(() => tf.variable(tf.zeros([n]), true, `${name}_${uniqueId()}`));
    this.w1 = glorot('w1', obsDim, h);
    this.b1 = zeros('b1', h);
    this.w2 = glorot('w2', h, h);
    this.b2 = zeros('b2', h);
    this.v1 = glorot('v1', actionDim, h);
    this.c1 = zeros('c1', h);
    this.v2 = glorot('v2', h, h);
    this.c2 = zeros('c2', h);
    this.variables = [this.w1, this.b1, this.w2, this.b2, this.v1, this.c1, this.v2, this.c2];
  }

  /** Masked logits [B, A] for observations [B, obsDim], candidate features [B, A, actionDim], mask [B, A]. */
  logits(obs: tf.Tensor2D, features: tf.Tensor3D, mask: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => {
      const [b, a, d] = features.shape;
      const h = tf.tanh(tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(obs, this.w1), this.b1)), this.w2), this.b2));
      const flat = tf.reshape(features, [b * a, d]);
      const e = tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(flat, this.v1), this.c1)), this.v2), this.c2);
      const scores = tf.mul(tf.sum(tf.mul(tf.reshape(e, [b, a, -1]), tf.expandDims(h, 1)), 2), 1 / Math.sqrt(this.shape.hiddenSize));
      return tf.where(tf.cast(mask, 'bool'), scores, tf.fill([b, a], MASKED_LOGIT)) as tf.Tensor2D;
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

// tfjs variable names are global; two policies (GRPO and BEACON side by side) need distinct names.
let nextId = 0;
const uniqueId = () => nextId++;
