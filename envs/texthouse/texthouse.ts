/**
 * TextHouse: an ALFWorld-style text household as a VecEnv (envs/types.ts). B episodes step together;
 * their state lives in a TextHouseState (typed arrays) and each step applies one command slot, runs the
 * milestone detector Φ for the task's next milestone, and rewrites the mask, features and observation
 * incrementally, allocating nothing.
 *
 * Module map: vocabulary (types and names), config (horizons), layout (task generation), commands (mask
 * and transitions), milestones (Φ), features (policy inputs), oracle (planner), text (rendering).
 */
import type { Rng } from '../../src/prng.ts';
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
  private readonly dropout: number;
  private started = false;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout } = validateEnvOptions(options);
    const cfg = HORIZON_CONFIGS[horizon];
    const B = batchSize;
    this.horizon = horizon;
    this.batchSize = B;
    this.cfg = cfg;
    this.dropout = milestoneDropout;
    this.maxMilestones = maxMilestonesOf(cfg);
    this.maxSteps = cfg.maxSteps;
    this.state = new TextHouseState(B, cfg.recMax, cfg.objMax, this.maxMilestones, cfg.idleCommands);
    this.maxActions = this.state.A;
    this.obs = new Float32Array(B * OBS_DIM);
    this.actionFeatures = new Float32Array(B * this.maxActions * ACTION_DIM);
    this.actionMask = new Uint8Array(B * this.maxActions);
    this.stateKey = new Uint32Array(B);
    this.numMilestones = this.state.nMs;
    this.milestone = new Uint8Array(B);
    this.milestonesReached = new Uint8Array(B);
    this.done = new Uint8Array(B);
    this.success = new Uint8Array(B);
    this.steps = new Int32Array(B);
  }

  reset(taskSeeds: ArrayLike<number>, rng: Rng): void {
    const B = this.batchSize;
    if (taskSeeds.length !== B) throw new RangeError(`texthouse reset: need ${B} task seeds, got ${taskSeeds.length}`);
    for (let b = 0; b < B; b++) {
      const seed = taskSeeds[b];
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
        throw new RangeError(`texthouse reset: task seed ${b} must be an integer in [0, 4294967295]; got ${seed}`);
      }
    }
    const s = this.state;
    const p = this.dropout;
    for (let b = 0; b < B; b++) {
      generateTask(s, b, taskSeeds[b], this.cfg);
      for (let k = 0; k < s.M; k++) s.msDrop[b * s.M + k] = p > 0 && k < s.nMs[b] && rng.bernoulli(p) ? 1 : 0;
      this.stateKey[b] = s.computeKey(b);
      this.milestone[b] = 0;
      this.milestonesReached[b] = 0;
      this.done[b] = 0;
      this.success[b] = 0;
      this.steps[b] = 0;
      writeMask(s, this.actionMask, b);
      initActionFeatures(s, this.actionFeatures, this.actionMask, b);
      writeObs(s, this.obs, b);
    }
    this.started = true;
  }

  step(actions: Int32Array): void {
    if (!this.started) throw new Error('texthouse step: call reset() first');
    const B = this.batchSize;
    const A = this.maxActions;
    if (actions.length < B) throw new RangeError(`texthouse step: need ${B} actions, got ${actions.length}`);
    // Check the whole batch before changing anything, so a bad action leaves the batch untouched.
    for (let b = 0; b < B; b++) {
      if (this.done[b]) continue;
      const a = actions[b];
      if (!(a >= 0 && a < A) || this.actionMask[b * A + a] !== 1) {
        const what = a >= 0 && a < A ? ` ("${describeAction(this.state, b, a)}")` : '';
        throw new RangeError(`texthouse step: action ${a}${what} is not admissible in episode ${b}`);
      }
    }
    const s = this.state;
    const key = this.stateKey;
    const M = s.M;
    for (let b = 0; b < B; b++) {
      this.milestone[b] = 0;
      if (this.done[b]) continue;
      applyCommand(s, key, b, actions[b]);
      const steps = ++this.steps[b];
      const k = s.progress[b];
      const nMs = s.nMs[b];
      if (k < nMs && milestoneHolds(s, b, s.msKind[b * M + k])) {
        s.progress[b] = k + 1;
        key[b] ^= Z_PROGRESS[k] ^ Z_PROGRESS[k + 1];
        if (!s.msDrop[b * M + k]) {
          this.milestone[b] = k + 1;
          this.milestonesReached[b]++;
        }
        if (k + 1 === nMs) {
          this.done[b] = 1;
          this.success[b] = 1;
        }
      }
      if (steps >= this.maxSteps) this.done[b] = 1;
      writeMask(s, this.actionMask, b);
      refreshActionFeatures(s, this.actionFeatures, this.actionMask, b);
      writeObs(s, this.obs, b);
    }
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
    if (!this.started) throw new Error('texthouse: call reset() first');
    return b;
  }
}

export const createTextHouse: EnvFactory = (options) => new TextHouse(options);
