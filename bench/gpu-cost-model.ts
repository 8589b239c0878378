/**
 * A real-GPU ESTIMATE of an iteration's seconds from what bench:gpu counts and measures: not a
 * measurement. It adds six terms, each priced at a stated figure:
 *
 * - calls: compute dispatches × 24–95 µs. About 24–36 µs per dispatch at the API on Vulkan and about
 *   95 µs with a framework on top (arXiv 2604.02344; docs/performance.md, "The cost model").
 *   Submits and uploads' call overhead are folded into this figure (tfjs batches 15 dispatches per submit).
 * - read-back round trips: read maps × 0.5–1.5 ms, a `mapAsync` round trip in a browser being on the
 *   order of a millisecond (published figures, as in docs/performance.md).
 * - bytes over the bus: (bytes read back + bytes written by the host) at 12 GB/s, an ASSUMED effective
 *   PCIe 3.0 x16 / 4.0 x8 rate (16 GB/s raw, less the protocol's share); integrated GPUs share memory and
 *   pay less.
 * - arithmetic: the iteration's FLOPs (bench:gpu: gpu-kernel-model.ts `kernelFlops` of the kernels this tree runs) at 10 TFLOP/s, an ASSUMED fp32 rate of a
 *   mid-range discrete GPU. The policy's matrices are small (width 64), so a real kernel reaches a
 *   fraction of that peak: read this term as a floor.
 * - serial depth: the longest chains of dependent operations the kernels' lanes run (per rollout step,
 *   per update minibatch) times the steps and a per-operation latency (gpu-kernel-model.ts, which reads
 *   the depth of each kernel version as data and prices it on a device profile: here the assumed
 *   mid-range GPU's). The FLOP rate alone prices latency-bound kernels as if they were not.
 * - host: the milliseconds the host spent per iteration outside GPU waits, MEASURED by bench:gpu on the
 *   machine that ran it: the main thread's CPU time where Linux gives it, else wall time (bench/gpu.ts
 *   says how, and why on SwiftShader the wall figure is an upper bound).
 *
 * The total is their sum, low and high: serial, so an upper bound where the GPU works while the host
 * does (the critical path lies between the largest term and the sum). The dominant term is the largest
 * at the middle of its range.
 */
import type { WebGpuCallCounts } from '../src/backend/webgpu-call-counter.ts';

export const COST_MODEL = {
  dispatchSeconds: { low: 24e-6, high: 95e-6 },
  readBackSeconds: { low: 0.5e-3, high: 1.5e-3 },
  busBytesPerSecond: 12e9,
  flopsPerSecond: 10e12,
  source:
    'dispatch 24–95 µs (arXiv 2604.02344), mapAsync round trip 0.5–1.5 ms (published figures); bus 12 GB/s effective PCIe and 10 TFLOP/s fp32 (assumed mid-range GPU); host ms measured on this machine',
} as const;

/** What the arithmetic depends on: the policy's shape and how many steps the iteration acted and trained on. */
export interface IterationShape {
  obsDim: number;
  actionDim: number;
  /** Candidate slots per step (the environment's maxActions): every slot is scored, admissible or not. */
  candidates: number;
  hiddenSize: number;
  /** Environment steps of the iteration (all runs): one acting pass each. */
  envSteps: number;
  /** PPO epochs: each trains on every step once. */
  epochs: number;
}

/**
 * FLOPs of one policy forward pass on one step, multiply-adds counted as 2: the observation tower
 * (obsDim → H → H), the candidate tower on every candidate slot (actionDim → H → H) and the A scores
 * h · e. Biases, tanh, the masked softmax and the sampling are O(A · H), small next to the matmuls'
 * O(A · H²), and left out.
 */
export function forwardFlopsPerStep(s: Pick<IterationShape, 'obsDim' | 'actionDim' | 'candidates' | 'hiddenSize'>): number {
  const h = s.hiddenSize;
  const observation = 2 * (s.obsDim * h + h * h);
  const candidate = 2 * (s.actionDim * h + h * h);
  return observation + s.candidates * (candidate + 2 * h);
}

/**
 * FLOPs of one iteration: the rollout's acting pass (one forward per step of every run) and the update,
 * forward + backward ≈ 3 forwards per step per epoch (the backward pass is two matmuls per forward one:
 * input and weight gradients). Left out: the advantages (O(steps) additions), Adam (O(weights) per
 * minibatch), the environment's own steps, and the SFT prior (first iteration only). Counting every
 * candidate slot is an upper bound: the tfjs-ops update embeds each distinct candidate row once.
 */
export function iterationFlops(s: IterationShape): { rollout: number; update: number; total: number } {
  const forward = forwardFlopsPerStep(s);
  const rollout = s.envSteps * forward;
  const update = 3 * s.epochs * s.envSteps * forward;
  return { rollout, update, total: rollout + update };
}

export type CostTerm = 'calls' | 'readBacks' | 'bus' | 'arithmetic' | 'serial' | 'host';
export const COST_TERMS: readonly CostTerm[] = ['calls', 'readBacks', 'bus', 'arithmetic', 'serial', 'host'];

export interface GpuEstimate {
  /** Each term's seconds, low and high (equal where the term has one figure). */
  terms: Record<CostTerm, { low: number; high: number }>;
  lowSeconds: number;
  highSeconds: number;
  /** The largest term at the middle of its range. */
  dominant: CostTerm;
  flops: number;
}

export type EstimateInput = Pick<WebGpuCallCounts, 'dispatches' | 'readBacks' | 'bytesReadBack' | 'bytesWritten'> & {
  /** Measured host seconds outside GPU waits (bench/gpu.ts: main-thread CPU time, else wall time). */
  hostSeconds: number;
  /** The iteration's FLOPs (bench:gpu: gpu-kernel-model.ts `kernelFlops(CURRENT_KERNELS, …).total`). */
  flops: number;
  /** Seconds of the kernels' serial chains, low and high (gpu-kernel-model.ts `phaseEstimates`, rollout + update). */
  serialSeconds: { low: number; high: number };
};

/** Seconds an iteration would take on a real GPU by the cost model, term by term: an ESTIMATE. */
export function estimateRealGpuSeconds(x: EstimateInput): GpuEstimate {
  const one = (s: number) => ({ low: s, high: s });
  const terms: Record<CostTerm, { low: number; high: number }> = {
    calls: { low: x.dispatches * COST_MODEL.dispatchSeconds.low, high: x.dispatches * COST_MODEL.dispatchSeconds.high },
    readBacks: { low: x.readBacks * COST_MODEL.readBackSeconds.low, high: x.readBacks * COST_MODEL.readBackSeconds.high },
    bus: one((x.bytesReadBack + x.bytesWritten) / COST_MODEL.busBytesPerSecond),
    arithmetic: one(x.flops / COST_MODEL.flopsPerSecond),
    serial: { ...x.serialSeconds },
    host: one(x.hostSeconds),
  };
  const mid = (t: CostTerm) => (terms[t].low + terms[t].high) / 2;
  const dominant = COST_TERMS.reduce((best, t) => (mid(t) > mid(best) ? t : best));
  const sum = (end: 'low' | 'high') => COST_TERMS.reduce((acc, t) => acc + terms[t][end], 0);
  return { terms, lowSeconds: sum('low'), highSeconds: sum('high'), dominant, flops: x.flops };
}

/** One line: every term, the total and the dominant term, labelled as an estimate. */
export function formatEstimate(e: GpuEstimate): string {
  const ms = (s: number) => (s >= 0.1 ? `${(s * 1000).toFixed(0)}` : (s * 1000).toPrecision(2));
  const range = (t: CostTerm) => (e.terms[t].low === e.terms[t].high ? `${ms(e.terms[t].low)} ms` : `${ms(e.terms[t].low)}–${ms(e.terms[t].high)} ms`);
  return (
    `real-GPU ESTIMATE: calls ${range('calls')}, read-backs ${range('readBacks')}, bus ${range('bus')}, ` +
    `arithmetic ${range('arithmetic')} (${(e.flops / 1e9).toFixed(2)} GFLOP), serial depth ${range('serial')}, host ${range('host')} (measured here); ` +
    `total ${ms(e.lowSeconds)}–${ms(e.highSeconds)} ms; dominant: ${e.dominant}`
  );
}
