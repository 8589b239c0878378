/**
 * One minibatch's uniforms and workgroups for the fused update's seven kernels (fused-ppo.ts runs
 * them for one seed, fused-ppo-seeds.ts for several side by side): the Params struct of
 * shaders/lib/ppo_batch.wgsl with the seed's bases, and how many workgroups each kernel takes.
 */
import type { FusedMinibatch, FusedPpoSettings, FusedPpoShape } from './fused-ppo-batch.ts';
import { variableSizes } from './fused-ppo-batch.ts';
import {
  forwardWorkgroups,
  LOSS_KINDS,
  lossWorkgroups,
  type ParamName,
  rowGrouping,
  SEGMENT_CHUNK,
  type SeedBaseName,
  spanRows,
  towerGrads,
  WORKGROUP,
} from './fused-ppo-kernels.ts';

/** What a minibatch's uniforms take of its batch: its steps and distinct candidate rows. */
export interface BatchSize {
  numSteps: number;
  numRows: number;
}

/**
 * Minibatch `mb` of a batch: row `row` of `rows` statistics rows, `groupRows` in the update's first
 * minibatch (its first three kernels also group the pairs by row), its parts at `bases`.
 */
export function minibatchDispatch(
  shape: FusedPpoShape,
  batch: BatchSize,
  mb: FusedMinibatch,
  row: number,
  rows: number,
  s: FusedPpoSettings,
  groupRows: boolean,
  bases: Readonly<Record<SeedBaseName, number>>,
): { params: Record<ParamName, number>; workgroups: number[] } {
  const { obsDim: D, actionDim: F, hiddenSize: H, numActions: A } = shape;
  const M = mb.size;
  const K = batch.numRows;
  const weightCount = variableSizes(shape).reduce((a, b) => a + b, 0);
  const grouping = rowGrouping(batch.numSteps, A, K, H, F, D, M);
  const tower = towerGrads(M, D, H);
  const params: Record<ParamName, number> = {
    numSteps: batch.numSteps,
    batchSize: M,
    permOffset: mb.offset,
    numRows: K,
    obsDim: D,
    actionDim: F,
    hiddenSize: H,
    numActions: A,
    scale: 1 / Math.sqrt(H),
    clipLow: 1 - s.clipRatio,
    clipHigh: 1 + s.clipRatio,
    clipRatio: s.clipRatio,
    entropyCoef: s.entropyCoef,
    klCoef: s.klCoef,
    maxGradNorm: s.maxGradNorm,
    learningRate: s.learningRate,
    beta1: s.beta1,
    beta2: s.beta2,
    epsilon: s.epsilon,
    statsRow: row,
    statsRows: rows,
    weightCount,
    lossKind: LOSS_KINDS[s.lossKind ?? 'ppo'],
    valueCoef: 0,
    groupRows: groupRows ? 1 : 0,
    countBlocks: grouping.countBlocks,
    blockPairs: grouping.blockPairs,
    spanRows: spanRows(M),
    ...bases,
  };
  const groups = (n: number) => Math.ceil(n / WORKGROUP);
  // The first minibatch's kernels 1–3 take more workgroups: they count, scan and place the pairs.
  const grouped = groupRows ? grouping.countBlocks : 0;
  const workgroups = [
    forwardWorkgroups(M, K) + grouped,
    lossWorkgroups(M, A) + (groupRows ? 1 : 0),
    tower.workgroups + grouped,
    Math.ceil((batch.numSteps * A) / SEGMENT_CHUNK) + groups(tower.floats),
    grouping.tiles,
    1,
    groups(weightCount),
  ];
  return { params, workgroups };
}
