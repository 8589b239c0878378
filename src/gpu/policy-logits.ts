/**
 * The lean acting pass (shaders/policy-logits.wgsl): a step's masked logits in one dispatch, reading
 * the policy's weights from one flat GPU buffer. `Policy.logits` (src/policy/policy.ts) is the
 * reference; the values agree up to float32 rounding (a test checks). The GPU rollout computes the
 * same logits, summed in the same order, inside its whole-episode kernel (shaders/lib/rollout.wgsl);
 * this kernel is that acting pass on its own, for the tests. `gatherWeights` and the weight count serve
 * both.
 *
 * The weights are copied from the variables' own GPU buffers into the flat buffer once per rollout
 * (they stay fixed while acting), recorded into the rollout's command buffer: GPU-side copies, no
 * dispatch, no read-back.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { flushTfjsQueue, tensorGpuBuffer } from '../backend/webgpu-interop.ts';
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
 * Records into `encoder` copies of `variables` (a policy's, in order) into `target`, back to back: GPU
 * copies from the variables' own buffers, no kernel and no submit of their own. tfjs's pending work
 * (an update through its ops, the upload of a variable still on the CPU) is submitted here, so the
 * copies see the current weights; keep the variables alive until `encoder`'s commands are submitted.
 */
export function gatherWeights(encoder: GPUCommandEncoder, variables: readonly tf.Tensor[], target: GPUBuffer): void {
  const bytes = variables.reduce((sum, v) => sum + v.size * 4, 0);
  if (bytes > target.size) throw new RangeError(`policy weights need ${bytes} bytes; the buffer has ${target.size}`);
  const sources = variables.map(tensorGpuBuffer); // may record uploads into tfjs's queue
  flushTfjsQueue();
  let offset = 0;
  variables.forEach((v, i) => {
    encoder.copyBufferToBuffer(sources[i], 0, target, offset, v.size * 4);
    offset += v.size * 4;
  });
}

/** The kernel's uniform values for a batch. */
export function policyLogitsParams(numEpisodes: number, obsDim: number, actionDim: number, numCandidates: number, hiddenSize: number) {
  if (hiddenSize > POLICY_LOGITS_MAX_HIDDEN)
    throw new RangeError(`hiddenSize must be at most ${POLICY_LOGITS_MAX_HIDDEN} for the GPU acting pass; got ${hiddenSize}`);
  return { numEpisodes, obsDim, actionDim, numCandidates, hiddenSize, scale: Math.fround(1 / Math.sqrt(hiddenSize)) };
}
