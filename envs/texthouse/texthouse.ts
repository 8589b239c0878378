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
import { BaseVecEnv } from '../base-env.ts';
import { type EnvFactory, type EnvOptions, validateEnvOptions } from '../types.ts';
import { applyCommand, writeMask } from './commands.ts';
import { HORIZON_CONFIGS, type HorizonConfig, maxMilestonesOf } from './config.ts';
import { ACTION_DIM, OBS_DIM, initActionFeatures, refreshActionFeatures, writeObs } from './features.ts';
import { generateTask } from './layout.ts';
import { fineTransition, looseSideEffect, milestoneHolds } from './milestones.ts';
import { oracleAction } from './oracle.ts';
import { TextHouseState, Z_PROGRESS } from './state.ts';
import { describeAction, describeMilestones, describeObservation, describeTask } from './text.ts';

export class TextHouse extends BaseVecEnv {
  /** Episode state; exposed read-only for tests and tools. */
  readonly state: TextHouseState;
  private readonly cfg: HorizonConfig;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout, detector } = validateEnvOptions(options);
    const cfg = HORIZON_CONFIGS[horizon];
    const maxMilestones = maxMilestonesOf(cfg);
    const state = new TextHouseState(batchSize, cfg.recMax, cfg.objMax, maxMilestones, cfg.idleCommands);
    super({
      name: 'texthouse',
      horizon,
      batchSize,
      milestoneDropout,
      detector,
      obsDim: OBS_DIM,
      actionDim: ACTION_DIM,
      maxActions: state.A,
      maxSteps: cfg.maxSteps,
      maxMilestones,
      progress: state.progress,
      numMilestones: state.nMs,
    });
    this.state = state;
    this.cfg = cfg;
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
      const a = actions[b];
      applyCommand(s, key, b, a);
      const k = s.progress[b];
      const kind = s.msKind[b * s.M + k];
      // The loose and fine detectors read what the command did (docs/maths.md §6).
      const detector = this.book.detector;
      const side = detector === 'loose' ? looseSideEffect(s, a) : detector === 'fine' && k < s.nMs[b] && fineTransition(s, b, a, kind);
      if (this.book.record(b, k < s.nMs[b] && milestoneHolds(s, b, kind), side)) key[b] ^= Z_PROGRESS[k] ^ Z_PROGRESS[k + 1];
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
    return describeAction(this.state, this.checkEpisode(b), this.checkAction(a));
  }

  describeMilestones(b: number): string[] {
    return describeMilestones(this.state, this.checkEpisode(b));
  }
}

export const createTextHouse: EnvFactory = (options) => new TextHouse(options);
