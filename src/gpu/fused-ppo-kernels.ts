/**
 * The seven kernels of the fused PPO update (shaders/ppo-*.wgsl) and the uniforms they share, as the
 * runner in fused-ppo.ts dispatches them; their limits mirror shaders/lib/ppo_batch.wgsl.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

/**
 * The uniforms every fused PPO kernel reads: the `Params` struct of shaders/lib/ppo_batch.wgsl, which
 * all seven import, one per seed (a seed axis: kernel-spec.ts `seeds`); the offsets are reflected from
 * it when each kernel is compiled (kernel.ts). The bases place a seed's part of each joined buffer.
 */
export const FUSED_PPO_PARAMS = uniformFields([
  ['numSteps', 'u32'],
  ['batchSize', 'u32'],
  ['permOffset', 'u32'],
  ['numRows', 'u32'],
  ['obsDim', 'u32'],
  ['actionDim', 'u32'],
  ['hiddenSize', 'u32'],
  ['numActions', 'u32'],
  ['scale', 'f32'],
  ['clipLow', 'f32'],
  ['clipHigh', 'f32'],
  ['clipRatio', 'f32'],
  ['entropyCoef', 'f32'],
  ['klCoef', 'f32'],
  ['maxGradNorm', 'f32'],
  ['learningRate', 'f32'],
  ['beta1', 'f32'],
  ['beta2', 'f32'],
  ['epsilon', 'f32'],
  ['statsRow', 'u32'],
  ['statsRows', 'u32'],
  ['weightCount', 'u32'],
  ['lossKind', 'u32'],
  ['valueCoef', 'f32'],
  ['groupRows', 'u32'],
  ['countBlocks', 'u32'],
  ['blockPairs', 'u32'],
  ['spanRows', 'u32'],
  ['weightBase', 'u32'],
  ['workBase', 'u32'],
  ['groupBase', 'u32'],
  ['pieceBase', 'u32'],
  ['partialBase', 'u32'],
  ['stepBase', 'u32'],
  ['rowBase', 'u32'],
  ['stateBase', 'u32'],
  ['statsBase', 'u32'],
]);
export type SeedBaseName = 'weightBase' | 'workBase' | 'groupBase' | 'pieceBase' | 'partialBase' | 'stepBase' | 'rowBase' | 'stateBase' | 'statsBase';
/** A seed alone: each of its parts at the start of its buffer. */
export const NO_SEED_BASES: Readonly<Record<SeedBaseName, number>> = {
  weightBase: 0,
  workBase: 0,
  groupBase: 0,
  pieceBase: 0,
  partialBase: 0,
  stepBase: 0,
  rowBase: 0,
  stateBase: 0,
  statsBase: 0,
};
export type ParamName = (typeof FUSED_PPO_PARAMS)[number][0];

/**
 * The losses ppo-step-loss differentiates, as its `lossKind` uniform (LOSS_PPO, LOSS_CLONING in
 * shaders/lib/ppo_batch.wgsl): PPO's (docs/maths.md §4) and behaviour cloning's (§9).
 */
export const LOSS_KINDS = { ppo: 0, cloning: 1 } as const;
export type LossKind = keyof typeof LOSS_KINDS;

export const PPO_FORWARD = defineKernel({
  name: 'ppo-forward',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['weights', 'read'],
    ['obs', 'read'],
    ['features', 'read'],
    ['perm', 'read'],
    ['work', 'read_write'],
    ['rows', 'read'],
    ['groups', 'read_write'],
  ],
});
export const PPO_STEP_LOSS = defineKernel({
  name: 'ppo-step-loss',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['weights', 'read'],
    ['work', 'read_write'],
    ['rows', 'read'],
    ['actions', 'read'],
    ['oldLogProbs', 'read'],
    ['advantages', 'read'],
    ['perm', 'read'],
    ['groups', 'read_write'],
  ],
});
export const PPO_STEP_GRADS = defineKernel({
  name: 'ppo-step-grads',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['obs', 'read'],
    ['perm', 'read'],
    ['work', 'read'],
    ['partials', 'read_write'],
    ['rows', 'read'],
    ['groups', 'read_write'],
  ],
});
export const PPO_CANDIDATE_GRADS = defineKernel({
  name: 'ppo-candidate-grads',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['work', 'read'],
    ['rows', 'read'],
    ['groups', 'read'],
    ['pieces', 'read_write'],
    ['partials', 'read'],
    ['grads', 'read_write'],
  ],
});
export const PPO_CANDIDATE_INPUT_GRADS = defineKernel({
  name: 'ppo-candidate-input-grads',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['features', 'read'],
    ['weights', 'read'],
    ['work', 'read_write'],
    ['pieces', 'read'],
    ['groups', 'read'],
    ['partials', 'read_write'],
  ],
});
export const PPO_GRAD_NORM = defineKernel({
  name: 'ppo-grad-norm',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['grads', 'read_write'],
    ['work', 'read'],
    ['state', 'read_write'],
    ['statsOut', 'read_write'],
    ['partials', 'read'],
  ],
});
export const PPO_ADAM = defineKernel({
  name: 'ppo-adam',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['weights', 'read_write'],
    ['firstMoment', 'read_write'],
    ['secondMoment', 'read_write'],
    ['grads', 'read'],
    ['state', 'read'],
  ],
});

/** The seven kernels in dispatch order. */
export const FUSED_PPO_KERNELS = [PPO_FORWARD, PPO_STEP_LOSS, PPO_STEP_GRADS, PPO_CANDIDATE_GRADS, PPO_CANDIDATE_INPUT_GRADS, PPO_GRAD_NORM, PPO_ADAM] as const;

/** Invocations per workgroup: 64, and 256 for the one-workgroup norm (its tree sums hold 256). */
export const WORKGROUP = 64;
export const NORM_WORKGROUP = 256;
/** Words of the state buffer before the statistics rows (STATE_ROWS in shaders/lib/ppo_batch.wgsl). */
export const STATE_ROWS = 8;
/** Limits of the kernels' workgroup arrays (MAX_HIDDEN, MAX_ACTIONS in shaders/lib/ppo_batch.wgsl). */
export const FUSED_PPO_MAX_HIDDEN = 512;
export const FUSED_PPO_MAX_ACTIONS = 256;

/** Rows per workgroup of ppo-forward (FORWARD_ROWS in shaders/lib/ppo_batch.wgsl). */
export const FORWARD_ROWS = 32;

/** ppo-forward's workgroups for `rows` observation rows and `candidateRows` distinct candidate rows (before the counting blocks). */
export function forwardWorkgroups(rows: number, candidateRows: number): number {
  return Math.ceil(rows / FORWARD_ROWS) + Math.ceil(candidateRows / FORWARD_ROWS);
}

/** Rows per workgroup of ppo-step-loss, and the (row, candidate) pairs its arrays hold (LOSS_ROWS, LOSS_PAIRS in shaders/lib/ppo_batch.wgsl). */
const LOSS_ROWS = 32;
const LOSS_PAIRS = 512;

/** ppo-step-loss's workgroups for `rows` minibatch rows of `candidates` candidates each (lossRows in the WGSL), before the scan's. */
export function lossWorkgroups(rows: number, candidates: number): number {
  return Math.ceil(rows / Math.min(LOSS_ROWS, Math.max(1, Math.floor(LOSS_PAIRS / candidates))));
}

/** Sorted pairs per workgroup of the segmented sum, and distinct rows per workgroup of the candidate tower's backward pass (SEGMENT_CHUNK, ROW_TILE in shaders/lib/ppo_batch.wgsl). */
export const SEGMENT_CHUNK = 256;
export const ROW_TILE = 16;
/** ppo-step-grads' tile: rows staged at a time, inputs per workgroup (TILE_ROWS, TILE_INPUTS in the WGSL). */
const TILE_ROWS = 32;
const TILE_INPUTS = 16;
/** At most this many spans of rows per minibatch: the reduction after ppo-step-grads adds as many partials per output. */
const MAX_SPANS = 128;
/** At most this many per-block counts (K × blocks): the scan's single workgroup reads each twice. */
const MAX_COUNTS = 1 << 18;
/** Fewest pairs per counting block: shorter blocks only add counts to scan. */
const MIN_BLOCK_PAIRS = 256;

/** Rows per span of ppo-step-grads for a minibatch of `rows` (spanRows): at least 8 tiles, at most MAX_SPANS spans. */
export function spanRows(rows: number): number {
  return Math.max(8 * TILE_ROWS, Math.ceil(rows / MAX_SPANS / TILE_ROWS) * TILE_ROWS);
}

/** The observation tower's gradients W1, b1, W2, b2 (towerGradFloats in the WGSL), and ppo-step-grads' workgroups for `rows` minibatch rows. */
export function towerGrads(rows: number, obsDim: number, hiddenSize: number) {
  const spans = Math.ceil(rows / spanRows(rows));
  const columnBlocks = Math.ceil(hiddenSize / WORKGROUP);
  const perSpan = (Math.ceil((obsDim + 1) / TILE_INPUTS) + Math.ceil((hiddenSize + 1) / TILE_INPUTS)) * columnBlocks;
  return { floats: (obsDim + 1 + hiddenSize + 1) * hiddenSize, spans, workgroups: spans * perSpan };
}

/**
 * How the update groups a batch of `steps` × `candidates` pairs over `rows` distinct rows by row
 * (shaders/lib/ppo_batch.wgsl groupOffsets), and the buffers that takes, in floats or words: each
 * bounded by the batch's pairs, never by steps × distinct rows; with the partial sums of a
 * minibatch of `minibatchRows` (the tower's per span, then the candidate tower's per tile of rows).
 */
export function rowGrouping(steps: number, candidates: number, rows: number, hiddenSize: number, actionDim: number, obsDim: number, minibatchRows: number) {
  const pairs = steps * candidates;
  const countBlocks = Math.max(1, Math.min(Math.ceil(pairs / MIN_BLOCK_PAIRS), Math.floor(MAX_COUNTS / Math.max(1, rows))));
  const blockPairs = Math.max(1, Math.ceil(pairs / countBlocks));
  const chunks = Math.ceil(pairs / SEGMENT_CHUNK);
  const tiles = Math.ceil(rows / ROW_TILE);
  const tower = towerGrads(minibatchRows, obsDim, hiddenSize);
  // Spans of any minibatch up to minibatchRows rows (spanRows keeps them under both bounds).
  const spans = Math.min(MAX_SPANS, Math.ceil(minibatchRows / (8 * TILE_ROWS)));
  return {
    countBlocks,
    blockPairs,
    chunks,
    tiles,
    groupWords: rows * countBlocks + 2 * (rows + 1) + steps + pairs,
    // A row's segment meets at most one chunk more than its share: K + chunks pieces in all.
    pieceFloats: (rows + chunks) * hiddenSize,
    partialFloats: spans * tower.floats + tiles * (actionDim + hiddenSize + 2) * hiddenSize,
  };
}
