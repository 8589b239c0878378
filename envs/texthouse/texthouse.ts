/**
 * TextHouse: an ALFWorld-style text household as a VecEnv (envs/types.ts). B episodes step together;
 * their state lives in a TextHouseState (typed arrays) and each step applies one command slot, runs the
 * milestone detector Φ for the task's next milestone, and rewrites the mask, features and observation
 * incrementally, allocating nothing.
 *
 * Module map: vocabulary (types and names), config (horizons), layout (task generation), commands (mask
 * and transitions), milestones (Φ), features (policy inputs), oracle (planner), text (rendering). The
 * shared per-episode bookkeeping (seeds, dropout, done and success) is envs/episode-book.ts.
 */
import type { Rng } from '../../src/prng.ts';
import { EpisodeBook } from '../episode-book.ts';
import { type EnvFactory, type EnvOptions, type Horizon, type VecEnv, validateEnvOptions } from '../types.ts';
import { applyCommand, writeMask } from './commands.ts';
import { HORIZON_CONFIGS, type HorizonConfig, maxMilestonesOf } from './config.ts';
import { ACTION_DIM, OBS_DIM, initActionFeatures, refreshActionFeatures, writeObs } from './features.ts';
import { generateTask } from './layout.ts';
import { milestoneHolds } from './milestones.ts';
import { oracleAction } from './oracle.ts';
import { TextHouseState, Z_PROGRESS } from './state.ts';
import { describeAction, describeMilestones, describeObservation, describeTask } from './text.ts';

export class TextHouse implements VecEnv {
  readonly name = 'texthouse';
  readonly horizon: Horizon;
  readonly batchSize: number;
  readonly obsDim = OBS_DIM;
  readonly actionDim = ACTION_DIM;
  readonly maxActions: number;
  readonly maxSteps: number;
  readonly maxMilestones: number;

  readonly obs: Float32Array;
  readonly actionFeatures: Float32Array;
  readonly actionMask: Uint8Array;
  readonly stateKey: Uint32Array;
  readonly numMilestones: Uint8Array;
  readonly milestone: Uint8Array;
  readonly milestonesReached: Uint8Array;
  readonly done: Uint8Array;
  readonly success: Uint8Array;
  readonly steps: Int32Array;

  /** Episode state; exposed read-only for tests and tools. */
  readonly state: TextHouseState;
  private readonly cfg: HorizonConfig;
  private readonly book: EpisodeBook;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout } = validateEnvOptions(options);
    const cfg = HORIZON_CONFIGS[horizon];
    const B = batchSize;
    this.horizon = horizon;
    this.batchSize = B;
    this.cfg = cfg;
    this.maxMilestones = maxMilestonesOf(cfg);
    this.maxSteps = cfg.maxSteps;
    this.state = new TextHouseState(B, cfg.recMax, cfg.objMax, this.maxMilestones, cfg.idleCommands);
    this.maxActions = this.state.A;
    this.obs = new Float32Array(B * OBS_DIM);
    this.actionFeatures = new Float32Array(B * this.maxActions * ACTION_DIM);
    this.actionMask = new Uint8Array(B * this.maxActions);
    this.stateKey = new Uint32Array(B);
    this.numMilestones = this.state.nMs;
    this.book = new EpisodeBook(this.name, B, this.maxSteps, milestoneDropout, this.state.progress, this.state.nMs);
    ({ milestone: this.milestone, milestonesReached: this.milestonesReached, done: this.done, success: this.success, steps: this.steps } = this.book);
  }

  reset(taskSeeds: ArrayLike<number>, rng: Rng): void {
    this.book.checkSeeds(taskSeeds);
    const s = this.state;
    for (let b = 0; b < this.batchSize; b++) {
      generateTask(s, b, taskSeeds[b], this.cfg);
      // One dropout draw per milestone of the task.
      this.book.begin(b, rng, s.nMs[b]);
      this.stateKey[b] = s.computeKey(b);
      writeMask(s, this.actionMask, b);
      initActionFeatures(s, this.actionFeatures, this.actionMask, b);
      writeObs(s, this.obs, b);
    }
    this.book.started = true;
  }

  step(actions: Int32Array): void {
    this.book.checkActions(actions, this.actionMask, this.maxActions, (b, a) => describeAction(this.state, b, a));
    const s = this.state;
    const key = this.stateKey;
    for (let b = 0; b < this.batchSize; b++) {
      if (this.done[b]) {
        this.milestone[b] = 0;
        continue;
      }
      applyCommand(s, key, b, actions[b]);
      const k = s.progress[b];
      if (this.book.record(b, k < s.nMs[b] && milestoneHolds(s, b, s.msKind[b * s.M + k]))) key[b] ^= Z_PROGRESS[k] ^ Z_PROGRESS[k + 1];
      writeMask(s, this.actionMask, b);
      refreshActionFeatures(s, this.actionFeatures, this.actionMask, b);
      writeObs(s, this.obs, b);
    }
  }

  /** B: each episode's milestone-dropout bits, drawn at reset (bit k hides milestone k + 1); a GPU rollout uploads them. */
  get droppedMilestones(): Uint8Array {
    return this.book.dropped;
  }

  oracleActions(out: Int32Array): void {
    for (let b = 0; b < this.batchSize; b++) if (!this.done[b]) out[b] = oracleAction(this.state, b);
  }

  describeTask(b: number): string {
    return describeTask(this.state, this.checkEpisode(b));
  }

  describeObservation(b: number): string {
    return describeObservation(this.state, this.checkEpisode(b));
  }

  describeAction(b: number, a: number): string {
    if (!Number.isInteger(a) || a < 0 || a >= this.maxActions) throw new RangeError(`action must be an integer in [0, ${this.maxActions}); got ${a}`);
    return describeAction(this.state, this.checkEpisode(b), a);
  }

  describeMilestones(b: number): string[] {
    return describeMilestones(this.state, this.checkEpisode(b));
  }

  private checkEpisode(b: number): number {
    if (!Number.isInteger(b) || b < 0 || b >= this.batchSize) throw new RangeError(`episode must be an integer in [0, ${this.batchSize}); got ${b}`);
    if (!this.book.started) throw new Error('texthouse: call reset() first');
    return b;
  }
}

export const createTextHouse: EnvFactory = (options) => new TextHouse(options);
