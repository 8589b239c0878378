/**
 * A rollout as the PPO update's batch: candidates deduplicated on the CPU (candidate-table.ts) and their
 * distinct rows uploaded once, so the update embeds each distinct candidate row once per minibatch.
 */
import * as tf from '@tensorflow/tfjs-core';
import { dedupeRows } from '../policy/candidate-table.ts';
import type { PpoBatch } from './ppo.ts';
import type { Rollout } from './rollout.ts';

export interface BatchDims {
  obsDim: number;
  actionDim: number;
  maxActions: number;
}

/** The batch; its tensors are owned by the caller (dispose with disposePpoBatch); `advantages` is taken over. */
export function toPpoBatch(rollout: Pick<Rollout, 'obs' | 'features' | 'mask' | 'actions' | 'logProbs'>, dims: BatchDims, advantages: tf.Tensor1D): PpoBatch {
  const table = dedupeRows(rollout.features, dims.actionDim);
  return {
    obsDim: dims.obsDim,
    numActions: dims.maxActions,
    obs: rollout.obs,
    candidates: tf.tensor2d(table.rows, [table.count, dims.actionDim]),
    candidateRows: table.rowOf,
    mask: Uint8Array.from(rollout.mask, (m) => (m ? 1 : 0)),
    actions: rollout.actions,
    oldLogProbs: rollout.logProbs,
    advantages,
  };
}

export function disposePpoBatch(batch: PpoBatch): void {
  tf.dispose([batch.candidates, batch.advantages]);
}
