/**
 * Seeded PPO batches for the fused update's parity tests (test/trainer/ppo-fused*-webgpu.test.ts):
 * observations, candidate rows and a mask drawn from one Rng, old log-probabilities near the policy's
 * own (so some ratios clip), and the advantages on a GPU buffer as the advantage kernels hand them over.
 */
import * as tf from '@tensorflow/tfjs-core';
import { TENSOR_BUFFER_USAGE } from '../../src/backend/webgpu-interop.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { MinibatchRows, type PpoBatch } from '../../src/trainer/ppo.ts';

export interface BatchShape {
  obsDim: number;
  actionDim: number;
  /** Candidates per step. */
  numActions: number;
}

/**
 * Each (step, candidate)'s distinct row in [0, rows), or the default: uniform draws. The first
 * candidate is always admissible, each other with probability 0.7.
 */
export type RowChoice = (step: number, candidate: number, rows: number, rng: Rng) => number;
const uniformRows: RowChoice = (_s, _a, rows, rng) => Math.floor(rng.nextFloat() * rows);

const advantageBuffers = new WeakMap<PpoBatch, GPUBuffer>();

/** A seeded batch of `steps` steps over `rows` distinct candidate rows. */
export async function makePpoBatch(
  device: GPUDevice,
  policy: Policy,
  shape: BatchShape,
  steps: number,
  rows: number,
  seed: number,
  options: { advantage?: (r: Rng) => number; rowOf?: RowChoice } = {},
): Promise<PpoBatch> {
  const { obsDim, actionDim, numActions: A } = shape;
  const advantage = options.advantage ?? ((r: Rng) => r.nextFloat() * 4 - 2);
  const rowOf = options.rowOf ?? uniformRows;
  const rng = new Rng(seed);
  const obs = Float32Array.from({ length: steps * obsDim }, () => rng.nextFloat() * 2 - 1);
  const features = Float32Array.from({ length: rows * actionDim }, () => rng.nextFloat() * 2 - 1);
  const candidateRows = Int32Array.from({ length: steps * A }, (_, i) => rowOf(Math.floor(i / A), i % A, rows, rng));
  const mask = Uint8Array.from({ length: steps * A }, (_, i) => (i % A === 0 || rng.nextFloat() < 0.7 ? 1 : 0));
  const actions = Int32Array.from({ length: steps }, (_, s) => {
    const open = Array.from({ length: A }, (_, a) => a).filter((a) => mask[s * A + a]);
    return open[Math.floor(rng.nextFloat() * open.length)];
  });
  const logp = tf.tidy(() => {
    const pick = Int32Array.from({ length: steps * A }, (_, i) => Math.floor(i / A) * rows + candidateRows[i]);
    const logits = policy.logits({
      obs: tf.tensor2d(obs, [steps, obsDim]),
      candidates: tf.tensor2d(features, [rows, actionDim]),
      pick: tf.tensor1d(pick, 'int32'),
      mask: tf.tensor2d(mask, [steps, A], 'bool'),
    });
    return tf.logSoftmax(logits);
  });
  const all = (await logp.data()) as Float32Array;
  logp.dispose();
  const oldLogProbs = Float32Array.from({ length: steps }, (_, s) => all[s * A + actions[s]] + (rng.nextFloat() - 0.5) * 0.8);
  // As the advantage kernels hand them over: a tensor on a buffer of usage STORAGE | COPY_SRC alone.
  const values = Float32Array.from({ length: steps }, () => advantage(rng));
  const output = device.createBuffer({ size: values.byteLength, usage: TENSOR_BUFFER_USAGE, mappedAtCreation: true });
  new Float32Array(output.getMappedRange()).set(values);
  output.unmap();
  const batch: PpoBatch = {
    obsDim,
    numActions: A,
    obs,
    candidates: tf.tensor2d(features, [rows, actionDim]),
    candidateRows,
    mask,
    actions,
    oldLogProbs,
    advantages: tf.tensor({ buffer: output, zeroCopy: true }, [steps], 'float32') as tf.Tensor1D,
    rows: new MinibatchRows(),
  };
  advantageBuffers.set(batch, output);
  return batch;
}

export function disposePpoBatch(b: PpoBatch): void {
  tf.dispose([b.candidates, b.advantages]);
  advantageBuffers.get(b)?.destroy(); // ours: a zero-copy tensor leaves its buffer to its maker
}

/**
 * c2, the candidate tower's output bias, adds the same amount to every candidate's logit, and the
 * log-softmax does not change under such a shift: its gradient is zero in exact arithmetic, and both
 * updates compute rounding noise for it. It is checked against the gradient's scale instead, and its
 * weights move by Adam steps on noise (at most a few × the learning rate each) in both updates.
 */
export const C2 = 7;

export const norm = (a: ArrayLike<number>) => Math.sqrt(Array.from(a).reduce((s, x) => s + x * x, 0));
