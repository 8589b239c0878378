/**
 * The GPU's share of an iteration priced from the kernels' structure: an ESTIMATE, read from the
 * kernels, not measured. Two terms per phase (rollout, update):
 *
 * - serial depth: the longest chain of dependent operations one lane runs between barriers, per step
 *   (rollout) or per minibatch (update), times the steps (or minibatches), times a per-operation
 *   latency, times the waves of workgroups the device runs one after the other. A kernel whose lanes
 *   wait on each other's results is latency-bound however fast the device's arithmetic is: this is
 *   the term that the FLOP rate alone missed on the H200 (docs/performance.md, "The cost model").
 * - arithmetic: the FLOPs the kernels perform (`kernelFlops`, multiply-adds as 2) at the device's
 *   fp32 rate, from its peak (low) to a tenth of it (high: small matrices, no tiling).
 *
 * Each kernel version is data (KERNEL_VERSIONS): its depth per step and per minibatch as functions of
 * the policy's shape, its barriers per step, whether the rollout embeds every candidate slot at every
 * step, whether the update's candidate-embedding gradient is dense over the distinct rows, and which
 * latency its dependent operations wait on. When new kernels land, their entry is updated, not the
 * model. `usefulFlops` names the arithmetic an iteration needs whatever the kernels: each distinct
 * candidate row embedded once per rollout, the update's gradients over steps × candidates.
 */
import { createEnv } from '../envs/index.ts';
import { DEFAULT_CONFIG } from '../src/config.ts';

/** What the arithmetic and the depth depend on: the policy's shape and the batch's. */
export interface KernelShape {
  obsDim: number;
  actionDim: number;
  /** Candidate slots per step (A). */
  candidates: number;
  hiddenSize: number;
  /** Runs of the iteration (workgroups of the rollout). */
  runs: number;
  /** Environment steps of the iteration (all runs). */
  envSteps: number;
  /** Distinct candidate rows of the batch (K; about 232 at the page defaults, about 500 at 4,096 runs in GridHouse long). */
  distinctRows: number;
  epochs: number;
  minibatches: number;
}

/** The sizes a depth function reads: D, F, A, H, K and M (a minibatch's rows). */
export interface DepthSizes {
  D: number;
  F: number;
  A: number;
  H: number;
  K: number;
  M: number;
}

/**
 * What a dependent operation waits on: `cached`, operands that stay in L1 or workgroup memory across
 * steps (the policy's weights, 66 KB); `streamed`, operands read once per pass (a minibatch's rows),
 * which miss the caches unless prefetched.
 */
export type LatencyClass = 'cached' | 'streamed';

export interface KernelVersion {
  name: string;
  /** Where the figures come from (the kernels read, or the plan they are written to). */
  basis: string;
  /** Dependent operations of the longest lane chain in one rollout step. */
  rolloutDepthPerStep: (s: DepthSizes) => number;
  /** Workgroup barriers per rollout step, each priced as one dependent operation. */
  rolloutBarriersPerStep: number;
  rolloutLatency: LatencyClass;
  /** True: every candidate slot of every step is embedded again; false: each distinct row once per rollout. */
  rolloutEmbedsEveryStep: boolean;
  /** Dependent operations of the longest chain of one minibatch's kernels, in dispatch order. */
  updateDepthPerMinibatch: (s: DepthSizes) => number;
  updateLatency: LatencyClass;
  /** True: the candidate-embedding gradient is dSᵀ · h over a dense steps × distinct-rows dS; false: a segmented sum over steps × candidates. */
  updateDenseRows: boolean;
}

/** The update's spans of rows (ppo-step-grads) and pairs per segmented-sum workgroup (ppo-candidate-grads). */
const SPANS = 128;
const SEGMENT = 256;

/** The kernels written for the GPU (2026-12-07): read from the kernels, not yet measured on a GPU. */
const GPU_KERNELS = {
  name: 'kernels written for the GPU (2026-12-07; not measured on a GPU)',
  basis: `read from shaders/lib/rollout.wgsl and shaders/ppo-*.wgsl as merged: a lane per hidden unit for both towers, so a steady step's chain is D + H (the observation tower) and H (a candidate's score summed in unit order), 5 barriers a step, each distinct row embedded once per rollout (in chunks of up to 16 rows a lane, only on the steps that meet a new row); the update's weight gradients summed over spans of rows (at most ${SPANS} spans, then one ordered reduction over them), the candidate-embedding gradient a segmented sum (${SEGMENT} pairs a workgroup, then each row's pieces in order), the candidate tower's backward pass once per distinct row`,
  rolloutDepthPerStep: ({ D, H }) => D + H + H,
  rolloutBarriersPerStep: 5,
  rolloutLatency: 'cached',
  rolloutEmbedsEveryStep: false,
  updateDepthPerMinibatch: ({ D, F, H, A, M }) => D + H + A + H + Math.ceil(M / SPANS) + SPANS + SEGMENT + Math.ceil((M * A) / SEGMENT) + F + H,
  updateLatency: 'streamed',
  updateDenseRows: false,
} as const satisfies KernelVersion;

export const KERNEL_VERSIONS = {
  /** The kernels measured on the H200 on 2026-12-04 (main before the kernels written for the GPU). */
  parity: {
    name: 'parity kernels (main, measured on the H200 2026-12-04)',
    basis:
      'read from shaders/lib/rollout.wgsl and shaders/ppo-*.wgsl: a candidate lane runs F·H + H·H dependent multiply-adds per step (the observation lanes’ D + H run beside it), 5 barriers a step, every slot embedded at every step; ppo-step-grads sums each output over the minibatch’s M rows in one invocation, ppo-candidate-grads and -input-grads over the K rows, dS dense over the K rows',
    rolloutDepthPerStep: ({ F, H }) => F * H + H * H,
    rolloutBarriersPerStep: 5,
    rolloutLatency: 'cached',
    rolloutEmbedsEveryStep: true,
    updateDepthPerMinibatch: ({ D, H, A, K, M }) => D + H + A + H + M + 2 * K,
    updateLatency: 'streamed',
    updateDenseRows: true,
  },
  gpu: GPU_KERNELS,
  /**
   * The same kernels with the update's row-wise passes in blocks (2026-12-07): FLOPs and chains as
   * `gpu`; what changed is what the model does not price, loads per multiply-add.
   */
  blocked: {
    ...GPU_KERNELS,
    name: 'kernels written for the GPU, update rows in blocks (2026-12-07; measured on SwiftShader only)',
    basis: `as the kernels written for the GPU, and ppo-forward and ppo-step-loss take 32 minibatch rows a workgroup (ppo-forward 32 observation or candidate rows): a lane accumulates its hidden units for 8 of the block's rows side by side, so each weight read from storage serves 8 rows and each staged input 4 (vectors of 4), where one workgroup per row read each weight once per row; ppo-step-grads reads its staged tiles as vectors of 4; ppo-candidate-grads stages its chunk's ${SEGMENT} pairs once. The FLOPs and each lane's chain of dependent operations are those of \`gpu\` (a block's rows are independent sums); the loads per multiply-add, which this model does not price, fall about 8× for the weights (measured on SwiftShader: docs/performance.md)`,
  },
} as const satisfies Record<string, KernelVersion>;

/** The kernels this tree runs (bench:gpu's serial and arithmetic terms). */
export const CURRENT_KERNELS: KernelVersion = KERNEL_VERSIONS.blocked;

/** A device's figures for the model; each is stated with its source where it is declared. */
export interface DeviceProfile {
  name: string;
  multiprocessors: number;
  /** Workgroups of the rollout resident at once per multiprocessor, low and high (fewer: more waves). */
  residentWorkgroups: { low: number; high: number };
  /** Seconds a dependent operation waits, per latency class, low and high. */
  latency: Record<LatencyClass, { low: number; high: number }>;
  /** Peak fp32 FLOP/s (no tensor cores). */
  flopsPerSecond: number;
  source: string;
}

/** Latencies common to recent NVIDIA GPUs at ≈ 1.9 GHz (assumed orders of magnitude, not measured here). */
const NVIDIA_LATENCY: DeviceProfile['latency'] = {
  // An L1 or workgroup-memory hit (≈ 30–40 cycles) to an L2 hit (≈ 250–300 cycles).
  cached: { low: 20e-9, high: 150e-9 },
  // An L2 hit to a memory access that misses it (≈ 600 ns with the queueing of many lanes).
  streamed: { low: 150e-9, high: 600e-9 },
};

export const DEVICES = {
  h200: {
    name: 'NVIDIA H200',
    multiprocessors: 132,
    // 32 is the hardware's most resident blocks per SM (64-lane workgroups: 2,048 threads); 8 an assumed floor.
    residentWorkgroups: { low: 8, high: 32 },
    latency: NVIDIA_LATENCY,
    flopsPerSecond: 67e12,
    source:
      '132 SMs and 67 TFLOP/s fp32 (the GH100 die of NVIDIA’s H100/H200 SXM specifications); 8–32 resident workgroups per SM (32: the hardware maximum; 8: assumed); latency per dependent operation 20–150 ns where its operands stay cached, 150–600 ns where they stream from memory (assumed orders for recent NVIDIA GPUs)',
  },
  /** The GPU bench:gpu's estimate assumes (gpu-cost-model.ts: 10 TFLOP/s fp32), with an assumed 40 multiprocessors. */
  midRange: {
    name: 'an assumed mid-range discrete GPU',
    multiprocessors: 40,
    residentWorkgroups: { low: 8, high: 32 },
    latency: NVIDIA_LATENCY,
    flopsPerSecond: 10e12,
    source: 'assumed: 40 multiprocessors, 8–32 resident workgroups each, 10 TFLOP/s fp32, the same latencies as the H200 profile',
  },
} as const satisfies Record<string, DeviceProfile>;

const depthSizes = (s: KernelShape): DepthSizes => ({
  D: s.obsDim,
  F: s.actionDim,
  A: s.candidates,
  H: s.hiddenSize,
  K: s.distinctRows,
  M: Math.ceil(s.envSteps / Math.max(1, s.minibatches)),
});

const TOWER = (inDim: number, h: number) => 2 * (inDim * h + h * h);

/**
 * FLOPs the kernels of `version` perform in one iteration, per phase (multiply-adds as 2; biases,
 * activations, softmax, Adam and the advantages left out: O(steps · (A + H)) or O(weights)).
 * Rollout: the observation tower and A scores per step, and the candidate tower per slot per step or
 * per distinct row once. Update, per epoch: forward, the loss's backward through the scores and the
 * observation tower and its weight gradients (≈ 3 forwards of the observation side), the
 * candidate-embedding gradient (dense: 2·K·H per step; segmented: 2·A·H), and per minibatch the
 * candidate tower forward and backward over the K rows.
 */
export function kernelFlops(version: KernelVersion, s: KernelShape): { rollout: number; update: number; total: number } {
  const { obsDim: D, actionDim: F, candidates: A, hiddenSize: H, envSteps: S, distinctRows: K } = s;
  const scores = 2 * A * H;
  const candidateTower = TOWER(F, H);
  const rollout = S * (TOWER(D, H) + scores) + (version.rolloutEmbedsEveryStep ? S * A * candidateTower : K * candidateTower);
  const observationSide = TOWER(D, H) + scores /* forward */ + scores /* ∂h from the scores */ + 2 * H * H /* ∂a1 */ + 2 * D * H + 2 * H * H; /* ∂W1, ∂W2 */
  const embeddingGradient = version.updateDenseRows ? 2 * K * H : 2 * A * H;
  const candidateSide = K * (candidateTower + 4 * H * H + 2 * F * H); // forward, ∂V2 and ∂g1, ∂V1
  const update = s.epochs * (S * (observationSide + embeddingGradient) + s.minibatches * candidateSide);
  return { rollout, update, total: rollout + update };
}

/**
 * The arithmetic an iteration needs whatever the kernels (multiply-adds as 2, the same leave-outs as
 * kernelFlops): the rollout's observation tower and A scores per step and each distinct candidate row
 * embedded once; per epoch, the observation side's forward, backward and weight gradients per step,
 * the candidate embeddings' gradient over steps × candidates (2·A·H a step), and per minibatch the
 * candidate tower forward and backward over the K rows its weights changed for.
 */
export function usefulFlops(s: KernelShape): number {
  const { obsDim: D, actionDim: F, candidates: A, hiddenSize: H, envSteps: S, distinctRows: K } = s;
  const rollout = S * (TOWER(D, H) + 2 * A * H) + K * TOWER(F, H);
  const perStep = TOWER(D, H) + 2 * A * H + 2 * A * H + 2 * H * H + 2 * D * H + 2 * H * H + 2 * A * H;
  const perMinibatch = K * (TOWER(F, H) + 4 * H * H + 2 * F * H);
  return rollout + s.epochs * (S * perStep + s.minibatches * perMinibatch);
}

export interface PhaseEstimate {
  /** Seconds of the serial chains, low and high. */
  serial: { low: number; high: number };
  /** Seconds of the arithmetic at the peak rate (low) and a tenth of it (high). */
  arithmetic: { low: number; high: number };
  /** serial + arithmetic, low and high (serial: an upper bound where the device overlaps them). */
  total: { low: number; high: number };
  /** The dependent operations of the whole phase's chain (depth × steps or minibatches). */
  depth: number;
  flops: number;
}

/** The rollout's and the update's seconds on `device` for kernels of `version`: an ESTIMATE. */
export function phaseEstimates(version: KernelVersion, s: KernelShape, device: DeviceProfile): { rollout: PhaseEstimate; update: PhaseEstimate } {
  const sizes = depthSizes(s);
  const flops = kernelFlops(version, s);
  // The workgroups of the rollout (one per run) run in waves where more exist than the device holds at once.
  const waves = (resident: number) => Math.ceil(s.runs / (device.multiprocessors * resident));
  const stepsPerRun = s.envSteps / s.runs;
  const rolloutDepth = stepsPerRun * (version.rolloutDepthPerStep(sizes) + version.rolloutBarriersPerStep);
  const updateDepth = s.epochs * s.minibatches * version.updateDepthPerMinibatch(sizes);
  const phase = (depth: number, latency: LatencyClass, flopCount: number, waveRange: { low: number; high: number }): PhaseEstimate => {
    const serial = { low: depth * device.latency[latency].low * waveRange.low, high: depth * device.latency[latency].high * waveRange.high };
    const arithmetic = { low: flopCount / device.flopsPerSecond, high: flopCount / (0.1 * device.flopsPerSecond) };
    return { serial, arithmetic, total: { low: serial.low + arithmetic.low, high: serial.high + arithmetic.high }, depth, flops: flopCount };
  };
  return {
    rollout: phase(rolloutDepth, version.rolloutLatency, flops.rollout, {
      low: waves(device.residentWorkgroups.high),
      high: waves(device.residentWorkgroups.low),
    }),
    update: phase(updateDepth, version.updateLatency, flops.update, { low: 1, high: 1 }),
  };
}

/** "12–34 ms (serial 10–30, arithmetic 2.0–4.0)". */
export function formatPhase(p: PhaseEstimate): string {
  const ms = (x: number) => (x >= 0.01 ? (x * 1000).toFixed(0) : (x * 1000).toPrecision(2));
  const range = (r: { low: number; high: number }) => `${ms(r.low)}–${ms(r.high)}`;
  return `${range(p.total)} ms (serial ${range(p.serial)}: ${Math.round(p.depth).toLocaleString('en-US')} dependent operations; arithmetic ${range(p.arithmetic)}: ${(p.flops / 1e9).toFixed(1)} GFLOP)`;
}

/** GridHouse long at `runs` and the page's width and update settings, with a measured iteration's env steps and distinct rows. */
export function measuredShape(runs: number, envSteps: number, distinctRows: number): KernelShape {
  const env = createEnv('gridhouse', { horizon: 'long', batchSize: 1 });
  return {
    obsDim: env.obsDim,
    actionDim: env.actionDim,
    candidates: env.maxActions,
    hiddenSize: DEFAULT_CONFIG.hiddenSize,
    runs,
    envSteps,
    distinctRows,
    epochs: DEFAULT_CONFIG.epochs,
    minibatches: DEFAULT_CONFIG.minibatches,
  };
}

/**
 * One method's `seeds` seeds of shape `s` on `device`, as an ESTIMATE: the rollout as one dispatch of
 * every seed's runs (src/trainer/gpu-rollout-batch.ts: seeds × runs workgroups, each seed's own
 * dictionary, so seeds × the distinct rows), and the update as one set of dispatches over every
 * seed's batch (src/gpu/fused-ppo-seeds.ts: the kernels' seed axis), priced as one update of seeds ×
 * the steps and distinct rows in as many minibatches. The advantages, the metrics and the host's time
 * are not priced.
 */
export function seedsEstimate(version: KernelVersion, s: KernelShape, seeds: number, device: DeviceProfile): { one: number; all: number } {
  const one = phaseEstimates(version, s, device);
  const all = phaseEstimates(version, { ...s, runs: s.runs * seeds, envSteps: s.envSteps * seeds, distinctRows: s.distinctRows * seeds }, device);
  const mid = (p: PhaseEstimate) => (p.total.low + p.total.high) / 2;
  return { one: mid(one.rollout) + mid(one.update), all: mid(all.rollout) + mid(all.update) };
}
