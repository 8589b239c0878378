/**
 * Rollout: N task instances × G runs each, stepped as one batch of B = N·G episodes.
 *
 * One forward pass and one small read-back (the log-probabilities) per step, on the step's distinct
 * candidate rows (candidate-table.ts); actions are sampled on
 * the CPU from the run's seeded Rng (not tf.multinomial), so the same seed gives the same runs on every
 * deterministic backend. Steps are recorded per episode slot, then laid out run by run in the
 * offset-indexed layout the advantage estimators take (src/advantages/types.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { VecEnv } from '../../envs/types.ts';
import { dedupeRows, pickIndices } from '../policy/candidate-table.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';

export interface Rollout {
  numRuns: number;
  groupSize: number;
  /** numGroups + 1 run offsets (every group has G runs). */
  groupOffsets: Int32Array;
  /** numRuns + 1 step offsets. */
  runOffsets: Int32Array;
  /** Per run: the task seed (G equal seeds form a group); with `actions` it replays the run exactly. */
  taskSeeds: Uint32Array;
  /** Per run. */
  success: Uint8Array;
  milestonesReached: Uint8Array;
  numMilestones: Uint8Array;
  // Per step, run-major (S = total steps):
  obs: Float32Array; // S × obsDim
  features: Float32Array; // S × A × actionDim
  mask: Float32Array; // S × A (1 admissible, 0 not)
  actions: Int32Array;
  logProbs: Float32Array;
  stateKeys: Uint32Array;
  milestones: Uint8Array;
}

/** Reusable per-slot step storage: slot b's step t lives at b · maxSteps + t. */
class SlotBuffers {
  readonly obs: Float32Array;
  readonly features: Float32Array;
  readonly mask: Float32Array;
  readonly actions: Int32Array;
  readonly logProbs: Float32Array;
  readonly stateKeys: Uint32Array;
  readonly milestones: Uint8Array;
  constructor(env: VecEnv) {
    const slots = env.batchSize * env.maxSteps;
    this.obs = new Float32Array(slots * env.obsDim);
    this.features = new Float32Array(slots * env.maxActions * env.actionDim);
    this.mask = new Float32Array(slots * env.maxActions);
    this.actions = new Int32Array(slots);
    this.logProbs = new Float32Array(slots);
    this.stateKeys = new Uint32Array(slots);
    this.milestones = new Uint8Array(slots);
  }
}

export class RolloutCollector {
  private readonly slots: SlotBuffers;
  private readonly actions: Int32Array;
  private readonly pick: Int32Array;
  private readonly live: Uint8Array;

  constructor(private readonly env: VecEnv, private readonly policy: Policy) {
    this.slots = new SlotBuffers(env);
    this.actions = new Int32Array(env.batchSize);
    this.pick = new Int32Array(env.batchSize * env.maxActions);
    this.live = new Uint8Array(env.batchSize);
  }

  /**
   * Plays one batch to the end. `taskSeeds` has one seed per group; `rng` draws dropout decisions and
   * actions (in that order, deterministically).
   */
  async collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng): Promise<Rollout> {
    const { env, slots, actions, live } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const { obsDim, actionDim, maxSteps } = env;
    if (taskSeeds.length * groupSize !== B) throw new RangeError(`rollout needs ${B} episodes, got ${taskSeeds.length} tasks × ${groupSize}`);
    const episodeSeeds = new Uint32Array(B);
    for (let b = 0; b < B; b++) episodeSeeds[b] = taskSeeds[Math.floor(b / groupSize)];
    env.reset(episodeSeeds, rng);

    while (!allDone(env.done)) {
      // The tensors below may alias env's arrays (the cpu backend keeps them): they die before env.step.
      const table = dedupeRows(env.actionFeatures, actionDim);
      const logProbs = tf.tidy(() =>
        tf.logSoftmax(this.policy.logits({
          obs: tf.tensor2d(env.obs, [B, obsDim]),
          candidates: tf.tensor2d(table.rows, [table.count, actionDim]),
          pick: tf.tensor1d(pickIndices(table.rowOf, A, table.count, null, this.pick), 'int32'),
          mask: tf.tensor2d(env.actionMask, [B, A], 'bool'),
        })),
      );
      const lp = (await logProbs.data()) as Float32Array;
      logProbs.dispose();
      for (let b = 0; b < B; b++) {
        live[b] = env.done[b] ? 0 : 1;
        if (!live[b]) continue;
        const slot = b * maxSteps + env.steps[b];
        const a = sampleAction(lp, b * A, A, env.actionMask, rng);
        actions[b] = a;
        slots.obs.set(env.obs.subarray(b * obsDim, (b + 1) * obsDim), slot * obsDim);
        slots.features.set(env.actionFeatures.subarray(b * A * actionDim, (b + 1) * A * actionDim), slot * A * actionDim);
        slots.mask.set(env.actionMask.subarray(b * A, (b + 1) * A), slot * A);
        slots.actions[slot] = a;
        slots.logProbs[slot] = lp[b * A + a];
        slots.stateKeys[slot] = env.stateKey[b];
      }
      env.step(actions);
      for (let b = 0; b < B; b++) {
        // The batch takes 0/1 flags (Φ fired or not); the env reports the milestone's task-order index.
        if (live[b]) slots.milestones[b * maxSteps + env.steps[b] - 1] = env.milestone[b] > 0 ? 1 : 0;
      }
    }
    return this.layOut(taskSeeds, groupSize, episodeSeeds);
  }

  /** Copies slot storage into the run-major offset-indexed layout. */
  private layOut(taskSeeds: Uint32Array, groupSize: number, episodeSeeds: Uint32Array): Rollout {
    const { env, slots } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const { obsDim, actionDim, maxSteps } = env;
    const runOffsets = new Int32Array(B + 1);
    for (let b = 0; b < B; b++) runOffsets[b + 1] = runOffsets[b] + env.steps[b];
    const S = runOffsets[B];
    const out: Rollout = {
      numRuns: B,
      groupSize,
      groupOffsets: Int32Array.from({ length: taskSeeds.length + 1 }, (_, g) => g * groupSize),
      runOffsets,
      taskSeeds: episodeSeeds,
      success: env.success.slice(),
      milestonesReached: env.milestonesReached.slice(),
      numMilestones: env.numMilestones.slice(),
      obs: new Float32Array(S * obsDim),
      features: new Float32Array(S * A * actionDim),
      mask: new Float32Array(S * A),
      actions: new Int32Array(S),
      logProbs: new Float32Array(S),
      stateKeys: new Uint32Array(S),
      milestones: new Uint8Array(S),
    };
    for (let b = 0; b < B; b++) {
      const from = b * maxSteps;
      const len = env.steps[b];
      const to = runOffsets[b];
      out.obs.set(slots.obs.subarray(from * obsDim, (from + len) * obsDim), to * obsDim);
      out.features.set(slots.features.subarray(from * A * actionDim, (from + len) * A * actionDim), to * A * actionDim);
      out.mask.set(slots.mask.subarray(from * A, (from + len) * A), to * A);
      out.actions.set(slots.actions.subarray(from, from + len), to);
      out.logProbs.set(slots.logProbs.subarray(from, from + len), to);
      out.stateKeys.set(slots.stateKeys.subarray(from, from + len), to);
      out.milestones.set(slots.milestones.subarray(from, from + len), to);
    }
    return out;
  }
}

function allDone(done: Uint8Array): boolean {
  for (let b = 0; b < done.length; b++) if (!done[b]) return false;
  return true;
}

/** Samples an admissible candidate with probability exp(log p). */
function sampleAction(logProbs: Float32Array, offset: number, count: number, mask: Uint8Array, rng: Rng): number {
  let u = rng.nextFloat();
  let last = -1;
  for (let a = 0; a < count; a++) {
    if (!mask[offset + a]) continue;
    last = a;
    const p = Math.exp(logProbs[offset + a]);
    if (u < p) return a;
    u -= p;
  }
  if (last < 0) throw new Error('a live episode has no admissible action');
  return last; // the probabilities summed to slightly under 1 in float32
}
