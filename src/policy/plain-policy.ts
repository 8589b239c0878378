/**
 * The policy's function (src/policy/policy.ts) in plain arithmetic, float64 sums, on its flat
 * weights in `Policy.variables` order (as the GPU's acting pass reads them, src/gpu/policy-logits.ts):
 *
 *   h = tanh(tanh(obs · W1 + b1) · W2 + b2),  e = tanh(feat · V1 + c1) · V2 + c2,  logit = h · e / √H
 *
 * in the acting kernels' order of summation (shaders/lib/acting.wgsl): each unit's input products in
 * input order, then its bias; the score's products in unit order.
 *
 * A CPU twin for checking what a GPU rollout recorded without a tfjs pass (which on webgpu would be
 * more dispatches and a read-back of its own). Candidate embeddings are kept by row id, since a
 * batch has few distinct candidate rows (candidate-table.ts).
 */
import type { PolicyShape } from './policy.ts';

export class PlainPolicy {
  /** The weights by variable, as float64 (every operand of the inner loops one array type: V8 keeps them fast). */
  private readonly parts: Float64Array[];
  private readonly embedded = new Map<number, Float64Array>();
  // Scratch, reused on every call (a check evaluates thousands of steps: no allocation per step).
  private readonly input: Float64Array;
  private readonly first: Float64Array;
  private readonly h: Float64Array;
  private logits = new Float64Array(0);

  constructor(
    weights: Float32Array,
    readonly shape: PolicyShape,
  ) {
    const { obsDim: D, actionDim: F, hiddenSize: H } = shape;
    const sizes = [D * H, H, H * H, H, F * H, H, H * H, H];
    const total = sizes.reduce((a, b) => a + b, 0);
    if (weights.length !== total) throw new RangeError(`a policy of this shape has ${total} weights; got ${weights.length}`);
    let offset = 0;
    this.parts = sizes.map((n) => Float64Array.from(weights.subarray(offset, (offset += n))));
    this.input = new Float64Array(Math.max(D, F));
    this.first = new Float64Array(H);
    this.h = new Float64Array(H);
  }

  /** out = act(x[0 … n) · w + bias); act is tanh or the identity. */
  private layer(x: Float64Array, n: number, w: Float64Array, bias: Float64Array, tanh: boolean, out: Float64Array): Float64Array {
    const H = this.shape.hiddenSize;
    out.fill(0);
    // Row by row of w (contiguous), skipping zero inputs: observations and features are mostly one-hot.
    for (let i = 0; i < n; i++) {
      const xi = x[i];
      if (xi === 0) continue;
      const row = i * H;
      let j = 0;
      // Four at a time: V8 does not vectorise, but it schedules independent adds better.
      for (; j + 3 < H; j += 4) {
        out[j] += xi * w[row + j];
        out[j + 1] += xi * w[row + j + 1];
        out[j + 2] += xi * w[row + j + 2];
        out[j + 3] += xi * w[row + j + 3];
      }
      for (; j < H; j++) out[j] += xi * w[row + j];
    }
    for (let j = 0; j < H; j++) {
      const z = out[j] + bias[j];
      out[j] = tanh ? Math.tanh(z) : z;
    }
    return out;
  }

  /** h of the observation at `obs[at …]`: valid until the next call. */
  observation(obs: ArrayLike<number>, at: number): Float64Array {
    const [w1, b1, w2, b2] = this.parts;
    const { obsDim: D, hiddenSize: H } = this.shape;
    for (let i = 0; i < D; i++) this.input[i] = obs[at + i];
    return this.layer(this.layer(this.input, D, w1, b1, true, this.first), H, w2, b2, true, this.h);
  }

  /** e of candidate row `row` (features at `features[row · actionDim …]`), computed once per row. */
  candidate(features: ArrayLike<number>, row: number): Float64Array {
    let e = this.embedded.get(row);
    if (!e) {
      const [, , , , v1, c1, v2, c2] = this.parts;
      const { actionDim: F, hiddenSize: H } = this.shape;
      for (let i = 0; i < F; i++) this.input[i] = features[row * F + i];
      e = this.layer(this.layer(this.input, F, v1, c1, true, new Float64Array(H)), H, v2, c2, false, new Float64Array(H));
      this.embedded.set(row, e);
    }
    return e;
  }

  /**
   * The logits of one step's admissible candidates, h · e / √H (the sum in unit order, as
   * shaders/lib/acting.wgsl forms it), at a where rows[a] ≥ 0 (the others left as they were): valid until
   * the next call.
   */
  scores(h: Float64Array, features: ArrayLike<number>, rows: ArrayLike<number>): Float64Array {
    const scale = 1 / Math.sqrt(this.shape.hiddenSize);
    if (this.logits.length < rows.length) this.logits = new Float64Array(rows.length);
    for (let a = 0; a < rows.length; a++) {
      if (rows[a] < 0) continue;
      const e = this.candidate(features, rows[a]);
      let dot = 0;
      for (let j = 0; j < h.length; j++) dot += h[j] * e[j];
      this.logits[a] = dot * scale;
    }
    return this.logits;
  }

  /**
   * log π(action | step) of one step: `h` its observation's embedding, `rows[a]` candidate a's row in
   * `features`, or −1 where a is inadmissible (masked out of the softmax).
   */
  logProb(h: Float64Array, features: ArrayLike<number>, rows: ArrayLike<number>, action: number): number {
    if (rows[action] < 0) return -Infinity;
    const logits = this.scores(h, features, rows);
    let top = -Infinity;
    for (let a = 0; a < rows.length; a++) if (rows[a] >= 0 && logits[a] > top) top = logits[a];
    let total = 0;
    for (let a = 0; a < rows.length; a++) if (rows[a] >= 0) total += Math.exp(logits[a] - top);
    return logits[action] - top - Math.log(total);
  }
}
