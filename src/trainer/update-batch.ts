/**
 * A rollout as the PPO update's batch: its distinct candidate rows (candidate-table.ts), renumbered in
 * order of first use by its steps and uploaded once, so the update embeds each distinct candidate row
 * once per minibatch. Where the GPU rollout numbered the same rows in its dictionary (gpu-rollout.ts),
 * the fused update reads them there and the host table is built only if something else asks for it
 * (the tfjs-ops update, for a batch over the fused kernels' limits): an S × A pass the host skips.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type CandidateTable, renumberByFirstUse } from '../policy/candidate-table.ts';
import { MinibatchRows, type PpoBatch } from './ppo.ts';
import type { Rollout } from './rollout.ts';

export interface BatchDims {
  obsDim: number;
  actionDim: number;
  maxActions: number;
}

/**
 * The batch; its tensors are owned by the caller (dispose with disposePpoBatch); `advantages` is taken
 * over. `rows`: minibatch row storage to reuse (a trainer keeps one for all its updates).
 */
export function toPpoBatch(
  rollout: Pick<Rollout, 'obs' | 'candidates' | 'candidateRows' | 'mask' | 'actions' | 'logProbs' | 'gpuRecords'>,
  dims: BatchDims,
  advantages: tf.Tensor1D,
  rows = new MinibatchRows(),
): PpoBatch {
  let table: CandidateTable | null = null;
  let candidates: tf.Tensor2D | null = null;
  const hostTable = () => (table ??= renumberByFirstUse(rollout.candidateRows, rollout.candidates, dims.actionDim));
  return {
    obsDim: dims.obsDim,
    numActions: dims.maxActions,
    // Read where used: a GPU rollout that replayed only its sample has no host arrays (rollout.ts
    // `stepsOnDemand`), and the fused update reads its records instead.
    get obs() {
      return rollout.obs;
    },
    get candidates() {
      // Kept: the first use may be inside a tf.tidy (a minibatch's inputs), which would free it.
      return (candidates ??= tf.keep(tf.tensor2d(hostTable().rows, [hostTable().count, dims.actionDim])));
    },
    get candidateRows() {
      return hostTable().rowOf;
    },
    // The GPU dictionary's count is the replay's (gpu-rollout.ts checks it), which is the host table's.
    numRows: rollout.gpuRecords?.candidates?.numRows ?? hostTable().count,
    release: () => candidates?.dispose(),
    get mask() {
      return rollout.mask;
    },
    get actions() {
      return rollout.actions;
    },
    get oldLogProbs() {
      return rollout.logProbs;
    },
    advantages,
    rows,
    ...(rollout.gpuRecords ? { records: rollout.gpuRecords } : {}),
  };
}

export function disposePpoBatch(batch: PpoBatch): void {
  batch.advantages.dispose();
  if (batch.release) batch.release();
  else batch.candidates.dispose();
}
