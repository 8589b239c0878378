/**
 * The lean acting pass (shaders/policy-logits.wgsl): a step's masked logits in one dispatch, reading
 * the policy's weights from one flat GPU buffer. `Policy.logits` (src/policy/policy.ts) is the
 * reference; the values agree up to float32 rounding (a test checks). The GPU rollout computes the
 * same logits, summed in the same order, inside its whole-episode kernel (shaders/lib/rollout.wgsl);
 * this kernel is that acting pass on its own, for the tests. `gatherWeights` and the weight count serve
 * both.
 *
 * The weights are gathered from tfjs's own buffers (`dataToGPU`) into the flat buffer once per rollout
 * (they stay fixed while acting): GPU-side work, no read-back.
 */
import * as tf from '@tensorflow/tfjs-core';
import { readTensorToGpu } from '../backend/webgpu-interop.ts';
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const POLICY_LOGITS = defineKernel({
  name: 'policy-logits',
  params: uniformFields([
    ['numEpisodes', 'u32'],
    ['obsDim', 'u32'],
    ['actionDim', 'u32'],
    ['numCandidates', 'u32'],
    ['hiddenSize', 'u32'],
    ['scale', 'f32'],
  ]),
  storage: [
    ['weights', 'read'],
    ['obs', 'read'],
    ['actionFeatures', 'read'],
    ['mask', 'read'],
    ['logits', 'read_write'],
  ],
});

/** Largest hidden size the kernel's workgroup arrays hold (MAX_HIDDEN in the WGSL). */
export const POLICY_LOGITS_MAX_HIDDEN = 512;
/** Invocations per workgroup (one invocation per (episode, candidate) pair). */
export const POLICY_LOGITS_WORKGROUP = 64;

/** Number of floats of the flat weights of a policy of this shape, in `Policy.variables` order. */
export function policyWeightCount(obsDim: number, actionDim: number, hiddenSize: number): number {
  const H = hiddenSize;
  return obsDim * H + H + H * H + H + actionDim * H + H + H * H + H;
}

/**
 * Copies `variables` (a policy's, in order) into `target` back to back, on the GPU: tfjs concatenates
 * them into one flat tensor (one kernel) and `dataToGPU` hands over its buffer, flushing tfjs's queue
 * first, so the copy sees the current weights. One flush instead of one per variable.
 */
export function gatherWeights(device: GPUDevice, variables: readonly tf.Tensor[], target: GPUBuffer): void {
  const flat = tf.tidy(() => tf.concat(variables.map((v) => tf.reshape(v, [-1]))));
  try {
    const bytes = flat.size * 4;
    if (bytes > target.size) throw new RangeError(`policy weights need ${bytes} bytes; the buffer has ${target.size}`);
    const { buffer, tensorRef } = readTensorToGpu(flat);
    try {
      const encoder = device.createCommandEncoder({ label: 'policy-logits weights' });
      encoder.copyBufferToBuffer(buffer, 0, target, 0, bytes);
      device.queue.submit([encoder.finish()]);
    } finally {
      tensorRef.dispose();
    }
  } finally {
    flat.dispose();
  }
}

/** The kernel's uniform values for a batch. */
export function policyLogitsParams(numEpisodes: number, obsDim: number, actionDim: number, numCandidates: number, hiddenSize: number) {
  if (hiddenSize > POLICY_LOGITS_MAX_HIDDEN)
    throw new RangeError(`hiddenSize must be at most ${POLICY_LOGITS_MAX_HIDDEN} for the GPU acting pass; got ${hiddenSize}`);
  return { numEpisodes, obsDim, actionDim, numCandidates, hiddenSize, scale: Math.fround(1 / Math.sqrt(hiddenSize)) };
}
