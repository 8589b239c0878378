/**
 * A real-GPU estimate of an iteration's API overhead from its WebGPU call counts. An ESTIMATE from
 * published figures, not a measurement: it prices only the calls (dispatch launch overhead and read-back
 * round trips), not the arithmetic, which on a discrete GPU is small next to them for this policy's
 * shapes (hundreds of thousands of FLOPs per dispatch). Figures:
 * - a compute dispatch costs about 24–36 µs at the API on Vulkan and about 95 µs with a framework on top
 *   (arXiv 2604.02344): we take 24 µs as the low and 95 µs as the high end;
 * - a `mapAsync` round trip in a browser is on the order of a millisecond: 0.5 ms low, 1.5 ms high;
 * - submits and uploads are folded into the dispatch figure (tfjs batches 15 dispatches per submit).
 */
import type { WebGpuCallCounts } from '../src/backend/webgpu-call-counter.ts';

export const COST_MODEL = {
  dispatchSeconds: { low: 24e-6, high: 95e-6 },
  readBackSeconds: { low: 0.5e-3, high: 1.5e-3 },
  source: 'dispatch 24–95 µs (arXiv 2604.02344), mapAsync round trip 0.5–1.5 ms; overhead only, arithmetic not priced',
} as const;

export interface GpuEstimate {
  lowSeconds: number;
  highSeconds: number;
}

/** Seconds an iteration with `calls` would spend on call overhead on a real GPU, low and high. */
export function estimateRealGpuSeconds(calls: Pick<WebGpuCallCounts, 'dispatches' | 'readBacks'>): GpuEstimate {
  const at = (end: 'low' | 'high') => calls.dispatches * COST_MODEL.dispatchSeconds[end] + calls.readBacks * COST_MODEL.readBackSeconds[end];
  return { lowSeconds: at('low'), highSeconds: at('high') };
}
