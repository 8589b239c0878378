/**
 * Cutting a minibatch into chunks for its gradient pass, so that no tensor of the update outgrows what a
 * backend holds: wasm's 4 GiB heap (a minibatch of 100,000 steps at width 512 needs several GiB of
 * activations at once and failed with "memory access out of bounds"), a WebGPU adapter's storage binding
 * limit (128 MiB by default).
 *
 * The minibatch's loss is a mean over its steps, so it is the chunks' means weighted by their share of
 * the steps; the gradient is the same weighted sum of the chunks' gradients (docs/maths.md §4's update is
 * unchanged; only float summation order differs). A minibatch that fits in one chunk, as at every page
 * default, takes the unchunked path unchanged, so its records stay bit-identical.
 */
import * as tf from '@tensorflow/tfjs-core';
import { applyClippedGradients } from './gradients.ts';

/** The most float32 values one per-step tensor of the update may hold: 4 Mi (16 MiB). */
export const CHUNK_ELEMENTS = 1 << 22;

/**
 * Steps per chunk when each step's widest tensor row has `widestRow` values (the hidden width, the
 * number of distinct candidate rows scored per step, or the candidates per step).
 */
export function chunkSteps(widestRow: number, chunkElements = CHUNK_ELEMENTS): number {
  return Math.max(1, Math.floor(chunkElements / Math.max(1, widestRow)));
}

/** `indices` cut into consecutive chunks of at most `size` steps, as views, in order. */
export function chunksOf(indices: Int32Array, size: number): Int32Array[] {
  const out: Int32Array[] = [];
  const count = Math.ceil(indices.length / size);
  // Near-equal chunks: a remainder of a few steps would cost a whole pass for little work.
  for (let c = 0; c < count; c++) out.push(indices.subarray(Math.floor((c * indices.length) / count), Math.floor(((c + 1) * indices.length) / count)));
  return out;
}

/**
 * One optimiser step over steps cut into `chunks` (of `steps` in all): `pass(chunk, weight)` returns
 * the chunk's gradients of its loss times `weight` (its share of the steps) and its statistics times
 * `weight`, kept; they are summed over the chunks, then the summed gradients are clipped and applied
 * once. Returns [statistics…, gradient norm] as a tensor owned by the caller. Each chunk's tidy closes
 * before the next pass starts, so a pass may reuse host row storage (MinibatchRows).
 */
export function chunkedStep(
  optimizer: tf.Optimizer,
  chunks: Int32Array[],
  steps: number,
  maxGradNorm: number,
  pass: (chunk: Int32Array, weight: number) => { grads: tf.NamedTensorMap; parts: tf.Tensor[] },
): tf.Tensor {
  let grads: tf.NamedTensorMap | null = null;
  let parts: tf.Tensor | null = null;
  for (const chunk of chunks) {
    const next = tf.tidy(() => {
      const { grads: g, parts: p } = pass(chunk, chunk.length / steps);
      const summed = grads ? Object.fromEntries(Object.keys(g).map((n) => [n, tf.add(grads![n], g[n])])) : g;
      const stats = tf.stack(p.map((t) => tf.reshape(t, [])));
      tf.dispose(p); // kept by the pass
      return { summed, stats: parts ? tf.add(parts, stats) : stats };
    });
    tf.dispose([...(grads ? Object.values(grads) : []), ...(parts ? [parts] : [])]);
    grads = next.summed;
    parts = next.stats;
  }
  const out = tf.tidy(() => tf.concat([parts!, tf.reshape(applyClippedGradients(optimizer, grads!, maxGradNorm), [1])]));
  tf.dispose([...Object.values(grads!), parts!]);
  return out;
}
