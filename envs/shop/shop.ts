/**
 * Shop: a WebShop-style web shop as a VecEnv (envs/types.ts). B episodes step together; their state
 * lives in a ShopState (typed arrays) and each step applies one click, runs the milestone detector Φ for
 * the order's next milestone and rewrites the mask, features and observation, allocating nothing.
 * Buying ends the order when the purchase misses a constraint or is the order's last product; the
 * episode's graded reward (`reward`, WebShop's, docs/maths.md §10) is 1 exactly on success.
 *
 * Module map: catalog (words), config (horizons), state (arrays and slots), layout (task generation),
 * pages (mask and clicks), reward (WebShop's reward), milestones (Φ), features (policy inputs), oracle
 * (planner), text (rendering and the page snapshot). The shared per-episode bookkeeping is
 * envs/episode-book.ts.
 */
import type { Rng } from '../../src/prng.ts';
import { EpisodeBook } from '../episode-book.ts';
import { type EnvFactory, type EnvOptions, type Horizon, type VecEnv, validateEnvOptions } from '../types.ts';
import { HORIZON_CONFIGS, type HorizonConfig, MILESTONES_PER_LINE } from './config.ts';
import { ACTION_DIM, OBS_DIM, writeActionFeatures, writeObs } from './features.ts';
import { copyTask, generateTask } from './layout.ts';
import { milestoneHolds } from './milestones.ts';
import { oracleAction } from './oracle.ts';
import { CLICK_BOUGHT_LAST, CLICK_BOUGHT_NEXT, CLICK_BOUGHT_WRONG, click, writeMask } from './pages.ts';
import { NUM_SLOTS, ShopState } from './state.ts';
import type { ShopFrame } from '../types.ts';
import { describeAction, describeMilestones, describeObservation, describeTask, shopFrame } from './text.ts';

export class Shop implements VecEnv {
  readonly name = 'shop';
  readonly horizon: Horizon;
  readonly batchSize: number;
  readonly obsDim = OBS_DIM;
  readonly actionDim = ACTION_DIM;
  readonly maxActions = NUM_SLOTS;
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
  /** B: WebShop's graded reward of the episode so far (mean over the order's products), in [0, 1]. */
  readonly reward: Float32Array;
  /** The trainer's outcome: the graded reward. */
  readonly outcome: Float32Array;

  /** Episode state; exposed read-only for tests and tools. */
  readonly state: ShopState;
  private readonly cfg: HorizonConfig;
  private readonly book: EpisodeBook;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout } = validateEnvOptions(options);
    const cfg = HORIZON_CONFIGS[horizon];
    const B = batchSize;
    this.horizon = horizon;
    this.batchSize = B;
    this.cfg = cfg;
    this.maxMilestones = cfg.lines * MILESTONES_PER_LINE;
    this.maxSteps = cfg.maxSteps;
    this.state = new ShopState(B, cfg);
    this.obs = new Float32Array(B * OBS_DIM);
    this.actionFeatures = new Float32Array(B * NUM_SLOTS * ACTION_DIM);
    this.actionMask = new Uint8Array(B * NUM_SLOTS);
    this.stateKey = new Uint32Array(B);
    this.numMilestones = this.state.nMs;
    this.reward = this.state.reward;
    this.outcome = this.state.reward;
    this.book = new EpisodeBook(this.name, B, this.maxSteps, milestoneDropout, this.state.progress, this.state.nMs);
    ({ milestone: this.milestone, milestonesReached: this.milestonesReached, done: this.done, success: this.success, steps: this.steps } = this.book);
  }

  reset(taskSeeds: ArrayLike<number>, rng: Rng): void {
    this.book.checkSeeds(taskSeeds);
    const s = this.state;
    for (let b = 0; b < this.batchSize; b++) {
      // A GRPO group's equal seeds give equal tasks: copy the previous episode's instead of drawing it again.
      if (b > 0 && taskSeeds[b] === taskSeeds[b - 1]) copyTask(s, b - 1, b);
      else generateTask(s, b, taskSeeds[b], this.cfg);
      // One dropout draw per milestone of the order.
      this.book.begin(b, rng, s.nMs[b]);
      this.refresh(b);
    }
    this.book.started = true;
  }

  step(actions: Int32Array): void {
    this.book.checkActions(actions, this.actionMask, NUM_SLOTS, (b, a) => describeAction(this.state, b, a));
    const s = this.state;
    for (let b = 0; b < this.batchSize; b++) {
      if (this.done[b]) {
        this.milestone[b] = 0;
        continue;
      }
      const outcome = click(s, b, actions[b]);
      const bought = outcome === CLICK_BOUGHT_NEXT || outcome === CLICK_BOUGHT_LAST;
      const k = s.progress[b];
      this.book.record(b, k < s.nMs[b] && milestoneHolds(s, b, k, bought));
      // Buying ends the order unless it met every constraint and another product remains (docs/maths.md §10).
      if (outcome === CLICK_BOUGHT_WRONG || outcome === CLICK_BOUGHT_LAST) this.done[b] = 1;
      this.refresh(b);
    }
  }

  private refresh(b: number): void {
    const s = this.state;
    this.stateKey[b] = s.computeKey(b);
    writeMask(s, this.actionMask, b);
    writeActionFeatures(s, this.actionFeatures, this.actionMask, b);
    writeObs(s, this.obs, b);
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

  /** The page on screen, for the episode view. */
  renderPage(b: number): ShopFrame {
    return shopFrame(this.state, this.checkEpisode(b));
  }

  private checkEpisode(b: number): number {
    if (!Number.isInteger(b) || b < 0 || b >= this.batchSize) throw new RangeError(`episode must be an integer in [0, ${this.batchSize}); got ${b}`);
    if (!this.book.started) throw new Error('shop: call reset() first');
    return b;
  }
}

export const createShop: EnvFactory = (options) => new Shop(options);
