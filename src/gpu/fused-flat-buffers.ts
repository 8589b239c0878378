/**
 * What the fused updates (fused-ppo.ts, fused-critic.ts) do around their kernels: the variables'
 * weights and Adam's moments copied into flat buffers (shaders/lib/ppo_batch.wgsl's layout) and back,
 * GPU-side copies rather than dispatches, and the error scopes that name a kernel that failed.
 */
import { GpuKernelError } from './kernel.ts';
import type { FusedPpoTargets } from './fused-ppo-batch.ts';

export const sumOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface FlatBuffers {
  weights: GPUBuffer;
  firstMoment: GPUBuffer;
  secondMoment: GPUBuffer;
  state: GPUBuffer;
}

/**
 * Where in the flat buffers a seed's part starts, in floats: its weights and moments, and its state
 * (several seeds' joined buffers, fused-ppo-seeds.ts; 0 for one network alone).
 */
export interface FlatBases {
  weightBase: number;
  stateBase: number;
}

const ALONE: FlatBases = { weightBase: 0, stateBase: 0 };

/** The variables' weights and moments into the flat buffers, β^t into the state's first two words. */
export function copyIn(encoder: GPUCommandEncoder, t: FusedPpoTargets, b: FlatBuffers, sizes: number[], at: FlatBases = ALONE): void {
  let offset = 4 * at.weightBase;
  sizes.forEach((n, i) => {
    encoder.copyBufferToBuffer(t.weights[i], 0, b.weights, offset, n * 4);
    encoder.copyBufferToBuffer(t.firstMoments[i], 0, b.firstMoment, offset, n * 4);
    encoder.copyBufferToBuffer(t.secondMoments[i], 0, b.secondMoment, offset, n * 4);
    offset += n * 4;
  });
  encoder.copyBufferToBuffer(t.accBeta1, 0, b.state, 4 * at.stateBase, 4);
  encoder.copyBufferToBuffer(t.accBeta2, 0, b.state, 4 * at.stateBase + 4, 4);
}

/** The flat buffers back into the variables' own. */
export function copyOut(encoder: GPUCommandEncoder, t: FusedPpoTargets, b: FlatBuffers, sizes: number[], at: FlatBases = ALONE): void {
  let offset = 4 * at.weightBase;
  sizes.forEach((n, i) => {
    encoder.copyBufferToBuffer(b.weights, offset, t.weights[i], 0, n * 4);
    encoder.copyBufferToBuffer(b.firstMoment, offset, t.firstMoments[i], 0, n * 4);
    encoder.copyBufferToBuffer(b.secondMoment, offset, t.secondMoments[i], 0, n * 4);
    offset += n * 4;
  });
  encoder.copyBufferToBuffer(b.state, 4 * at.stateBase, t.accBeta1, 0, 4);
  encoder.copyBufferToBuffer(b.state, 4 * at.stateBase + 4, t.accBeta2, 0, 4);
}

export function pushScopes(d: GPUDevice): number {
  d.pushErrorScope('out-of-memory');
  d.pushErrorScope('internal');
  d.pushErrorScope('validation');
  return 3;
}

/** Pops the scopes pushed by pushScopes; rejects with a GpuKernelError naming `label`. */
export function popScopes(d: GPUDevice, count: number, label: string): Promise<void> {
  const scopes = Array.from({ length: count }, () => d.popErrorScope());
  return Promise.all(scopes).then((errors) => {
    const error = errors.find((e) => e !== null);
    if (error) throw new GpuKernelError(label, error.message);
  });
}
