/**
 * GridHouse: a vectorised gridworld house (envs/types.ts VecEnv).
 *
 * The agent walks between rooms, takes objects from receptacles (table, counter, shelf), treats them
 * with appliances (microwave heats, fridge cools, sink cleans), unlocks and opens doors, and puts the
 * task object on its destination. Eight candidate actions: move N/E/S/W and interact N/E/S/W, where an
 * interaction does whatever the adjacent cell affords (transitions.ts).
 *
 * Module map: catalog (names and size caps), horizons (task sizes), layout (task generation and
 * distance fields), state (episode arrays and state key), transitions (mask and actions), milestones
 * (Φ), features (policy inputs), oracle (planner), text (rendering). The shared per-episode bookkeeping
 * (seeds, dropout, done and success) is envs/episode-book.ts.
 *
 * All per-episode state lives in typed arrays sized for B; step() and the feature writes allocate
 * nothing. Episodes with equal task seeds (a GRPO group) play one shared generated instance.
 */
import type { Rng } from '../../src/prng.ts';
import { BaseVecEnv } from '../base-env.ts';
import { validateEnvOptions, type EnvOptions, type GridFrame } from '../types.ts';
import { MAX_MILESTONES, NUM_ACTIONS } from './catalog.ts';
import { ACTION_DIM, FeatureWriter, OBS_DIM } from './features.ts';
import { HORIZON_SPECS } from './horizons.ts';
import { agentRoom, fineTransition, looseSideEffect, nextMilestoneHolds } from './milestones.ts';
import { oracleAction } from './oracle.ts';
import { GridHouseState } from './state.ts';
import * as text from './text.ts';
import { applyAction, writeAffordances } from './transitions.ts';

class GridHouse extends BaseVecEnv {
  /** Episode state; exposed read-only for tests and tools. */
  readonly state: GridHouseState;
  private readonly features: FeatureWriter;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout, detector } = validateEnvOptions(options);
    const spec = HORIZON_SPECS[horizon];
    const state = new GridHouseState(batchSize, horizon);
    const features = new FeatureWriter(batchSize, spec.maxSteps, spec.milestones);
    super({
      name: 'gridhouse',
      horizon,
      batchSize,
      milestoneDropout,
      detector,
      obsDim: OBS_DIM,
      actionDim: ACTION_DIM,
      maxActions: NUM_ACTIONS,
      maxSteps: spec.maxSteps,
      maxMilestones: spec.milestones,
      progress: state.progress,
      numMilestones: state.numMilestones,
      obs: features.obs,
      actionFeatures: features.actionFeatures,
    });
    this.state = state;
    this.features = features;
  }

  reset(taskSeeds: ArrayLike<number>, rng: Rng): void {
    this.book.checkSeeds(taskSeeds);
    const st = this.state;
    st.loadTasks(taskSeeds);
    for (let b = 0; b < this.batchSize; b++) {
      st.startEpisode(b);
      // A fixed number of dropout draws per episode, whatever the task's length.
      this.book.begin(b, rng, MAX_MILESTONES);
      this.features.start(st, b);
      this.update(b);
    }
    this.book.started = true;
  }

  step(actions: Int32Array): void {
    this.book.checkActions(actions, this.actionMask, NUM_ACTIONS);
    const st = this.state;
    for (let b = 0; b < this.batchSize; b++) {
      if (this.done[b]) {
        this.milestone[b] = 0;
        continue;
      }
      const detector = this.book.detector;
      // The loose and fine detectors read what the step did (docs/maths.md §6); the task detector needs neither.
      const effect = st.effect[b * NUM_ACTIONS + actions[b]];
      const roomBefore = detector === 'fine' ? agentRoom(st, b) : -1;
      applyAction(st, b, actions[b]);
      const side = detector === 'loose' ? looseSideEffect(effect) : detector === 'fine' && fineTransition(st, b, roomBefore);
      this.book.record(b, nextMilestoneHolds(st, b), side);
      this.update(b);
    }
  }

  oracleActions(out: Int32Array): void {
    for (let b = 0; b < this.batchSize; b++) out[b] = this.done[b] ? 0 : oracleAction(this.state, this.actionMask, b);
  }

  describeTask(b: number): string {
    return text.describeTask(this.state, this.check(b));
  }
  describeObservation(b: number): string {
    return text.describeObservation(this.state, this.check(b));
  }
  describeAction(b: number, a: number): string {
    if (!Number.isInteger(a) || a < 0 || a >= NUM_ACTIONS) throw new RangeError(`action must be an integer in [0, ${NUM_ACTIONS - 1}]; got ${a}`);
    return text.describeAction(this.state, this.actionMask, this.check(b), a);
  }
  describeMilestones(b: number): string[] {
    return text.describeMilestones(this.state, this.check(b));
  }
  renderFrame(b: number): GridFrame {
    return text.renderFrame(this.state, this.check(b));
  }

  private check(b: number): number {
    if (!Number.isInteger(b) || b < 0 || b >= this.batchSize) throw new RangeError(`episode must be an integer in [0, ${this.batchSize - 1}]; got ${b}`);
    return b;
  }

  /** Recomputes mask, effects, features and state key of episode b after a reset or a step. */
  private update(b: number): void {
    writeAffordances(this.state, this.actionMask, b);
    this.features.write(this.state, this.actionMask, b, this.steps[b]);
    this.stateKey[b] = this.state.hash(b);
  }
}

export const createGridHouse = (options: EnvOptions): GridHouse => new GridHouse(options);
export type { GridHouse };
