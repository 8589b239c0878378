/**
 * A rollout as the PPO update's batch: its distinct candidate rows (candidate-table.ts), renumbered in
 * order of first use by its steps and uploaded once, so the update embeds each distinct candidate row
 * once per minibatch.
 */
import * as tf from '@tensorflow/tfjs-core';
import { renumberByFirstUse } from '../policy/candidate-table.ts';
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
  const table = renumberByFirstUse(rollout.candidateRows, rollout.candidates, dims.actionDim);
  return {
    obsDim: dims.obsDim,
    numActions: dims.maxActions,
    obs: rollout.obs,
    candidates: tf.tensor2d(table.rows, [table.count, dims.actionDim]),
    candidateRows: table.rowOf,
    mask: rollout.mask,
    actions: rollout.actions,
    oldLogProbs: rollout.logProbs,
    advantages,
    rows,
    ...(rollout.gpuRecords ? { records: rollout.gpuRecords } : {}),
  };
}

export function disposePpoBatch(batch: PpoBatch): void {
  tf.dispose([batch.candidates, batch.advantages]);
}
