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
import type { CandidateDictionary } from './candidate-table.ts';
import { dense } from './dense.ts';
import { pick } from './pick.ts';
import { createTower, type FrozenTower, type Tower } from './tower.ts';

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
  names: [
    { weight: 'w1', bias: 'b1' },
    { weight: 'w2', bias: 'b2' },
  ],
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
      {
        names: [
          { weight: 'v1', bias: 'c1' },
          { weight: 'v2', bias: 'c2' },
        ],
        sizes: [actionDim, h, h],
        finalTanh: false,
      },
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
      return maskedLogits(pick(all, input.pick), m, a, this.shape.hiddenSize, input.mask);
    });
  }

  /** An actor for one rollout at the current weights; dispose it before the weights change. */
  actor(): Actor {
    return new Actor(this.observationTower.frozen(), this.candidateTower.frozen(), this.shape.hiddenSize);
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

/**
 * Picked scores [M·A] → masked logits [M, A]: scaled by 1/√H, inadmissible candidates at MASKED_LOGIT.
 * `constants`: the scale and the [M, A] fill as tensors made once (the Actor's), else made per call.
 */
function maskedLogits(
  picked: tf.Tensor1D,
  m: number,
  a: number,
  hiddenSize: number,
  mask: tf.Tensor2D,
  constants?: { scale: tf.Scalar; masked: tf.Tensor2D },
): tf.Tensor2D {
  const scores = tf.mul(tf.reshape(picked, [m, a]), constants?.scale ?? 1 / Math.sqrt(hiddenSize));
  return tf.where(mask, scores, constants?.masked ?? tf.fill([m, a], MASKED_LOGIT)) as tf.Tensor2D;
}

/**
 * The policy's logits while acting: during a rollout the weights stay fixed for every step, so
 *
 * - each tower's per-call constants are computed once (tower.ts `frozen`);
 * - each distinct candidate row is embedded once per rollout, when a step first offers it: a
 *   CandidateDictionary numbers the rows, and every step scores against all rows embedded so far.
 *
 * The values are those of `Policy.logits` on the same inputs: the same operations on each row (a row's
 * embedding and a step's score against a row do not depend on which other rows share the matmul).
 */
export class Actor {
  /** [H, K]: the embeddings of the dictionary's first K rows, transposed (matMul runs untransposed). */
  private embeddingsT: tf.Tensor2D | null = null;
  /** The score scale and the masked fill of the last shape, made once rather than on every step. */
  private constants: { scale: tf.Scalar; masked: tf.Tensor2D } | null = null;

  constructor(
    private readonly observationTower: FrozenTower,
    private readonly candidateTower: FrozenTower,
    private readonly hiddenSize: number,
  ) {}

  /**
   * Masked logits [M, A] of M steps. `pick`: m·K + the dictionary id of step m's candidate a, with K the
   * dictionary's current count (pickIndices); rows the dictionary gained since the last call are
   * embedded first. Call inside a tidy.
   */
  logits(obs: tf.Tensor2D, dictionary: CandidateDictionary, pick: tf.Tensor1D, mask: tf.Tensor2D): tf.Tensor2D {
    this.embedNewRows(dictionary);
    const [m, a] = mask.shape;
    const all = tf.reshape(tf.matMul(this.observationTower.apply(obs), this.embeddingsT!), [-1]) as tf.Tensor1D; // [M·K]
    return maskedLogits(tf.gather(all, pick), m, a, this.hiddenSize, mask, this.constantsFor(m, a));
  }

  dispose(): void {
    const made: (tf.Tensor | null)[] = [this.embeddingsT, this.constants?.scale ?? null, this.constants?.masked ?? null];
    tf.dispose(made.filter((t): t is tf.Tensor => t !== null));
    this.embeddingsT = this.constants = null;
    this.observationTower.dispose();
    this.candidateTower.dispose();
  }

  private constantsFor(m: number, a: number): { scale: tf.Scalar; masked: tf.Tensor2D } {
    const c = this.constants;
    if (c && c.masked.shape[0] === m && c.masked.shape[1] === a) return c;
    if (c) tf.dispose([c.scale, c.masked]);
    // Kept: made inside the caller's tidy, used by every later step.
    this.constants = { scale: tf.keep(tf.scalar(1 / Math.sqrt(this.hiddenSize))), masked: tf.keep(tf.fill([m, a], MASKED_LOGIT)) as tf.Tensor2D };
    return this.constants;
  }

  private embedNewRows(dictionary: CandidateDictionary): void {
    const known = this.embeddingsT?.shape[1] ?? 0;
    if (dictionary.count === known) return;
    const old = this.embeddingsT;
    // Kept: logits runs inside the caller's tidy, and the embeddings outlive it.
    this.embeddingsT = tf.keep(
      tf.tidy(() => {
        const fresh = tf.transpose(this.candidateTower.apply(tf.tensor2d(dictionary.rows(known), [dictionary.count - known, dictionary.rowLen])));
        return old ? tf.concat([old, fresh], 1) : fresh;
      }),
    );
    old?.dispose();
  }
}
