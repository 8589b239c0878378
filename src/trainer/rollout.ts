/**
 * Rollout: N task instances × G runs each, stepped as one batch of B = N·G episodes.
 *
 * One forward pass and one small read-back (the log-probabilities) per step. The policy acts with fixed
 * weights (policy.ts `Actor`): candidate rows are numbered by one dictionary for the whole rollout
 * (candidate-table.ts) and each distinct row is embedded once, when a step first offers it. Actions are
 * sampled on the CPU from the run's seeded Rng (not tf.multinomial), so the same seed gives the same runs
 * on every deterministic backend. Steps are recorded per episode slot, then laid out run by run in the
 * offset-indexed layout the advantage estimators take (src/advantages/types.ts). The same loop replays
 * actions chosen elsewhere (`replay`): the GPU rollout's (gpu-rollout.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { VecEnv } from '../../envs/types.ts';
import { CandidateDictionary, pickIndices } from '../policy/candidate-table.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import type { RolloutRecords } from '../gpu/ppo-gather.ts';

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
  /** Per run: the graded outcome in [0, 1] where the environment grades it (envs/types.ts `outcome`). */
  outcome?: Float32Array;
  milestonesReached: Uint8Array;
  numMilestones: Uint8Array;
  // Per step, run-major (S = total steps). Views of the collector's storage: they stay valid through
  // the next `collect` and are overwritten by the one after it.
  obs: Float32Array; // S × obsDim
  /** S × A: the row in `candidates` of each (step, candidate). */
  candidateRows: Int32Array;
  mask: Uint8Array; // S × A (1 admissible, 0 not)
  actions: Int32Array;
  /** Per step; after a GPU rollout only its checked runs' (NaN elsewhere) until `completeLogProbs` reads the rest. */
  logProbs: Float32Array;
  stateKeys: Uint32Array;
  milestones: Uint8Array;
  /** K × actionDim: the rollout's distinct candidate feature rows, in order of first appearance. */
  candidates: Float32Array;
  /**
   * A GPU rollout's step-major records of `obs`, `actions` and `logProbs`, still on the device: the
   * fused update gathers its rows there instead of uploading these arrays (ppo-gather.ts).
   */
  gpuRecords?: RolloutRecords;
  /**
   * A GPU rollout brings back only the log-probabilities its check samples (gpu-rollout.ts): this
   * reads every step's into `logProbs`, for an update that does not gather them on the GPU. Valid
   * until the collector's next rollout; absent where `logProbs` is whole.
   */
  completeLogProbs?: () => Promise<void>;
  /**
   * A GPU rollout that replayed only its checked sample on the host (sample-replay.ts) has no per-step
   * arrays (STEP_FIELDS): reading one throws StepsNotLaidOutError until this lays them all out (one
   * read-back of the actions and the host's replay of every run). Valid until the collector's next
   * rollout; absent where the steps are laid out.
   */
  completeReplay?: () => Promise<void>;
  /**
   * Such a rollout's checked sample, replayed on the host: run i of `rollout` (its steps laid out) is
   * the batch's run `runs[i]`. What the page draws of the batch (sample-view.ts).
   */
  sample?: { rollout: Rollout; runs: number[] };
}

/** Options of a collector's `collect`. */
export interface CollectOptions {
  /**
   * 'sample': the host may replay only the runs the GPU rollout's check samples, leaving the per-step
   * arrays to `completeReplay` (the caller reads the batch on the GPU). Default 'all'; a rollout on
   * the CPU always lays every step out.
   */
  replay?: 'all' | 'sample';
}

/** A rollout's per-step fields: what a rollout that replayed only its sample lays out on demand. */
export const STEP_FIELDS = ['obs', 'candidateRows', 'mask', 'actions', 'logProbs', 'stateKeys', 'milestones', 'candidates'] as const;
export type StepArrays = Pick<Rollout, (typeof STEP_FIELDS)[number]>;
type RunFields = Omit<Rollout, keyof StepArrays | 'completeReplay'>;

/** A per-step array of a rollout read before `completeReplay` laid it out. */
export class StepsNotLaidOutError extends Error {}

/** The steps of the whole batch: S. */
export function rolloutSteps(rollout: Pick<Rollout, 'runOffsets'>): number {
  return rollout.runOffsets[rollout.runOffsets.length - 1];
}

/**
 * A rollout whose per-step arrays are laid out only when asked for (`completeReplay`, which `layOut`
 * serves once); until then reading one throws StepsNotLaidOutError, so a consumer that needs them
 * cannot read stale or empty arrays by mistake.
 */
export function stepsOnDemand(runs: RunFields, layOut: () => Promise<StepArrays>): Rollout {
  const rollout = runs as Rollout;
  for (const name of STEP_FIELDS)
    Object.defineProperty(rollout, name, {
      configurable: true,
      enumerable: true,
      get() {
        throw new StepsNotLaidOutError(`the rollout's ${name} are not laid out: the GPU rollout replayed only its checked runs (await completeReplay() first)`);
      },
    });
  let laying: Promise<void> | null = null;
  rollout.completeReplay = () =>
    (laying ??= layOut().then((steps) => {
      for (const name of STEP_FIELDS) Object.defineProperty(rollout, name, { value: steps[name], writable: true, enumerable: true, configurable: true });
      rollout.completeReplay = undefined;
    }));
  return rollout;
}

/**
 * Reusable per-step storage for B · maxSteps steps. As slot storage, slot b's step t lives at
 * b · maxSteps + t; as a laid-out rollout, its first S steps are used, run by run.
 *
 * Why reuse: a batch's per-step arrays are megabytes (GridHouse long at page defaults: ~8k steps, 8.6 MB
 * of candidate features). Allocated fresh every iteration, in Chromium they are mapped afresh and
 * faulted in page by page, and unmapped again by the garbage collector: it cost the page's training
 * workers more than the copy itself (bench:page).
 */
class StepBuffers {
  readonly obs: Float32Array;
  readonly candidateRows: Int32Array;
  readonly mask: Uint8Array;
  readonly actions: Int32Array;
  readonly logProbs: Float32Array;
  readonly stateKeys: Uint32Array;
  readonly milestones: Uint8Array;
  constructor(env: VecEnv) {
    const slots = env.batchSize * env.maxSteps;
    this.obs = new Float32Array(slots * env.obsDim);
    this.candidateRows = new Int32Array(slots * env.maxActions);
    this.mask = new Uint8Array(slots * env.maxActions);
    this.actions = new Int32Array(slots);
    this.logProbs = new Float32Array(slots);
    this.stateKeys = new Uint32Array(slots);
    this.milestones = new Uint8Array(slots);
  }
}

export class RolloutCollector {
  private readonly slots: StepBuffers;
  /** Where rollouts are laid out, in turn: the previous rollout stays intact while the next is collected. */
  private readonly laidOut: [StepBuffers | null, StepBuffers | null] = [null, null];
  private turn = 0;
  private readonly actions: Int32Array;
  private readonly chosenLogProbs: Float32Array;
  private readonly pick: Int32Array;
  private readonly stepRows: Int32Array;
  private readonly live: Uint8Array;

  constructor(
    private readonly env: VecEnv,
    private readonly policy: Policy,
  ) {
    this.slots = new StepBuffers(env);
    this.actions = new Int32Array(env.batchSize);
    this.chosenLogProbs = new Float32Array(env.batchSize);
    this.pick = new Int32Array(env.batchSize * env.maxActions);
    this.stepRows = new Int32Array(env.batchSize * env.maxActions);
    this.live = new Uint8Array(env.batchSize);
  }

  /**
   * Plays one batch to the end. `taskSeeds` has one seed per group; `dropoutRng` draws the dropout
   * decisions (the trainer's own stream, so dropout leaves the action stream as it is without dropout;
   * docs/maths.md §6) and `rng` the actions.
   */
  async collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng: Rng = rng, _options?: CollectOptions): Promise<Rollout> {
    const { env, actions, chosenLogProbs } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const episodeSeeds = resetEpisodes(env, taskSeeds, groupSize, dropoutRng);
    const actor = this.policy.actor();
    try {
      return await this.play(taskSeeds, groupSize, episodeSeeds, async (_t, dictionary) => {
        // The tensors below may alias env's arrays (the cpu backend keeps them): they die before env.step.
        const logProbs = tf.tidy(() =>
          tf.logSoftmax(
            actor.logits(
              tf.tensor2d(env.obs, [B, env.obsDim]),
              dictionary,
              tf.tensor1d(pickIndices(this.stepRows, A, dictionary.count, null, this.pick), 'int32'),
              tf.tensor2d(env.actionMask, [B, A], 'bool'),
            ),
          ),
        );
        const lp = (await logProbs.data()) as Float32Array;
        logProbs.dispose();
        for (let b = 0; b < B; b++) {
          if (env.done[b]) continue;
          const a = sampleAction(lp, b * A, A, env.actionMask, rng);
          actions[b] = a;
          chosenLogProbs[b] = lp[b * A + a];
        }
      });
    } finally {
      actor.dispose();
    }
  }

  /**
   * Plays the batch again from the state `resetEpisodes` left it in, taking each live episode's action at
   * its step t from `recorded` (step-major: [t · B + b]), with its log-probability; the GPU rollout
   * (gpu-rollout.ts) acts on the GPU and lays its batch out here. A recorded action that is out of range
   * or not admissible here means the GPU's environment left the CPU's: that throws, naming the run and
   * step.
   */
  replay(taskSeeds: Uint32Array, groupSize: number, episodeSeeds: Uint32Array, recorded: { actions: Int32Array; logProbs: Float32Array }): Promise<Rollout> {
    const { env, actions, chosenLogProbs } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    return this.play(taskSeeds, groupSize, episodeSeeds, (t) => {
      for (let b = 0; b < B; b++) {
        if (env.done[b]) continue;
        const a = recorded.actions[t * B + b];
        if (!(a >= 0 && a < A && env.actionMask[b * A + a]))
          throw new ReplayMismatchError(`run ${b}, step ${t}: action ${a} is not one of the ${A} candidates admissible in the TypeScript environment`);
        actions[b] = a;
        chosenLogProbs[b] = recorded.logProbs[t * B + b];
      }
    });
  }

  /**
   * The loop both paths share: at each step, number the live episodes' candidate rows, let `choose` fill
   * `actions` and `chosenLogProbs` for every live episode, record the step, and step the environment.
   */
  private async play(
    taskSeeds: Uint32Array,
    groupSize: number,
    episodeSeeds: Uint32Array,
    choose: (t: number, dictionary: CandidateDictionary) => Promise<void> | void,
  ): Promise<Rollout> {
    const { env, slots, actions, chosenLogProbs, live } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const { obsDim, maxSteps } = env;
    this.stepRows.fill(0); // an episode that never runs keeps id 0, a valid row to score
    const dictionary = new CandidateDictionary(env.actionDim);
    for (let t = 0; !allDone(env.done); t++) {
      // Finished episodes' candidates are not recorded: they need no ids (their logits go unused).
      dictionary.addRows(env.actionFeatures, this.stepRows, (row) => env.done[Math.floor(row / A)] === 1);
      await choose(t, dictionary);
      for (let b = 0; b < B; b++) {
        live[b] = env.done[b] ? 0 : 1;
        if (!live[b]) continue;
        const slot = b * maxSteps + env.steps[b];
        slots.obs.set(env.obs.subarray(b * obsDim, (b + 1) * obsDim), slot * obsDim);
        slots.candidateRows.set(this.stepRows.subarray(b * A, (b + 1) * A), slot * A);
        slots.mask.set(env.actionMask.subarray(b * A, (b + 1) * A), slot * A);
        slots.actions[slot] = actions[b];
        slots.logProbs[slot] = chosenLogProbs[b];
        slots.stateKeys[slot] = env.stateKey[b];
      }
      env.step(actions);
      for (let b = 0; b < B; b++) {
        // The batch takes 0/1 flags (Φ fired or not); the env reports the milestone's task-order index.
        if (live[b]) slots.milestones[b * maxSteps + env.steps[b] - 1] = env.milestone[b] > 0 ? 1 : 0;
      }
    }
    return this.layOut(taskSeeds, groupSize, episodeSeeds, dictionary.rows());
  }

  /** Copies slot storage into the run-major offset-indexed layout, in this turn's storage. */
  private layOut(taskSeeds: Uint32Array, groupSize: number, episodeSeeds: Uint32Array, candidates: Float32Array): Rollout {
    const { env, slots } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const { obsDim, maxSteps } = env;
    const runOffsets = new Int32Array(B + 1);
    for (let b = 0; b < B; b++) runOffsets[b + 1] = runOffsets[b] + env.steps[b];
    const S = runOffsets[B];
    this.turn ^= 1;
    const store = (this.laidOut[this.turn] ??= new StepBuffers(env));
    const out: Rollout = {
      numRuns: B,
      groupSize,
      groupOffsets: groupOffsetsOf(taskSeeds.length, groupSize),
      runOffsets,
      taskSeeds: episodeSeeds,
      success: env.success.slice(),
      ...(env.outcome ? { outcome: env.outcome.slice() } : {}),
      milestonesReached: env.milestonesReached.slice(),
      numMilestones: env.numMilestones.slice(),
      // Every element of these views is written below: the runs' steps tile [0, S).
      obs: store.obs.subarray(0, S * obsDim),
      candidateRows: store.candidateRows.subarray(0, S * A),
      mask: store.mask.subarray(0, S * A),
      actions: store.actions.subarray(0, S),
      logProbs: store.logProbs.subarray(0, S),
      stateKeys: store.stateKeys.subarray(0, S),
      milestones: store.milestones.subarray(0, S),
      candidates,
    };
    for (let b = 0; b < B; b++) {
      const from = b * maxSteps;
      const len = env.steps[b];
      const to = runOffsets[b];
      out.obs.set(slots.obs.subarray(from * obsDim, (from + len) * obsDim), to * obsDim);
      out.candidateRows.set(slots.candidateRows.subarray(from * A, (from + len) * A), to * A);
      out.mask.set(slots.mask.subarray(from * A, (from + len) * A), to * A);
      out.actions.set(slots.actions.subarray(from, from + len), to);
      out.logProbs.set(slots.logProbs.subarray(from, from + len), to);
      out.stateKeys.set(slots.stateKeys.subarray(from, from + len), to);
      out.milestones.set(slots.milestones.subarray(from, from + len), to);
    }
    return out;
  }
}

/** The group offsets of `numGroups` groups of `groupSize` runs. */
export function groupOffsetsOf(numGroups: number, groupSize: number): Int32Array {
  return Int32Array.from({ length: numGroups + 1 }, (_, g) => g * groupSize);
}

/** A recorded action the TypeScript environment cannot take: the recording environment diverged. */
export class ReplayMismatchError extends Error {}

/**
 * Resets `env` for one batch: group g's G runs all play task `taskSeeds[g]`. Returns the per-run seeds.
 * `dropoutRng` draws the milestone-dropout decisions (docs/maths.md §6).
 */
export function resetEpisodes(env: VecEnv, taskSeeds: Uint32Array, groupSize: number, dropoutRng: Rng): Uint32Array {
  const B = env.batchSize;
  if (taskSeeds.length * groupSize !== B) throw new RangeError(`rollout needs ${B} episodes, got ${taskSeeds.length} tasks × ${groupSize}`);
  const episodeSeeds = new Uint32Array(B);
  for (let b = 0; b < B; b++) episodeSeeds[b] = taskSeeds[Math.floor(b / groupSize)];
  env.reset(episodeSeeds, dropoutRng);
  return episodeSeeds;
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
