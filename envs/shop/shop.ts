/**
 * Shop: a WebShop-style web shop as a VecEnv (envs/types.ts). B episodes step together; their state
 * lives in a ShopState (typed arrays) and each step applies one click, runs the milestone detector Φ for
 * the order's next milestone and rewrites the mask, features and observation, allocating nothing.
 * Buying ends the order when the purchase misses a constraint or is the order's last product; the
 * episode's graded reward (`reward`, WebShop's, docs/maths.md §10) is 1 exactly on success.
 *
 * Module map: catalog (words), config (horizons), state (arrays and slots), layout (task generation),
 * pages (mask and clicks), reward (WebShop's reward), milestones (Φ), features (policy inputs), oracle
 * (planner), text (rendering and the page snapshot). The shape, the per-episode arrays and
 * their bookkeeping are the shared base's (envs/base-env.ts).
 */
import type { Rng } from '../../src/prng.ts';
import { BaseVecEnv } from '../base-env.ts';
import { type EnvFactory, type EnvOptions, validateEnvOptions } from '../types.ts';
import { HORIZON_CONFIGS, type HorizonConfig, MILESTONES_PER_LINE } from './config.ts';
import { ACTION_DIM, OBS_DIM, writeActionFeatures, writeObs } from './features.ts';
import { copyTask, generateTask } from './layout.ts';
import { fineTransition, looseSideEffect, milestoneHolds } from './milestones.ts';
import { oracleAction } from './oracle.ts';
import { CLICK_BOUGHT_LAST, CLICK_BOUGHT_NEXT, CLICK_BOUGHT_WRONG, click, writeMask } from './pages.ts';
import { NUM_SLOTS, P_ITEM, ShopState } from './state.ts';
import type { ShopFrame } from '../types.ts';
import { describeAction, describeMilestones, describeObservation, describeTask, shopFrame } from './text.ts';

export class Shop extends BaseVecEnv {
  /** B: WebShop's graded reward of the episode so far (mean over the order's products), in [0, 1]. */
  readonly reward: Float32Array;
  /** The trainer's outcome: the graded reward. */
  readonly outcome: Float32Array;

  /** Episode state; exposed read-only for tests and tools. */
  readonly state: ShopState;
  private readonly cfg: HorizonConfig;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout, detector } = validateEnvOptions(options);
    const cfg = HORIZON_CONFIGS[horizon];
    const state = new ShopState(batchSize, cfg);
    super({
      name: 'shop',
      horizon,
      batchSize,
      milestoneDropout,
      detector,
      obsDim: OBS_DIM,
      actionDim: ACTION_DIM,
      maxActions: NUM_SLOTS,
      maxSteps: cfg.maxSteps,
      maxMilestones: cfg.lines * MILESTONES_PER_LINE,
      progress: state.progress,
      numMilestones: state.nMs,
    });
    this.cfg = cfg;
    this.state = state;
    this.reward = state.reward;
    this.outcome = state.reward;
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
      const detector = this.book.detector;
      const itemBefore = s.page[b] === P_ITEM ? s.item[b] : -1;
      const outcome = click(s, b, actions[b]);
      const bought = outcome === CLICK_BOUGHT_NEXT || outcome === CLICK_BOUGHT_LAST;
      const k = s.progress[b];
      // The loose and fine detectors read what the click did (docs/maths.md §6).
      const side =
        detector === 'loose'
          ? looseSideEffect(s, b, itemBefore, bought || outcome === CLICK_BOUGHT_WRONG)
          : detector === 'fine' && k < s.nMs[b] && fineTransition(s, b, k);
      this.book.record(b, k < s.nMs[b] && milestoneHolds(s, b, k, bought), side);
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
    return describeAction(this.state, this.checkEpisode(b), this.checkAction(a));
  }

  describeMilestones(b: number): string[] {
    return describeMilestones(this.state, this.checkEpisode(b));
  }

  /** The page on screen, for the episode view. */
  renderPage(b: number): ShopFrame {
    return shopFrame(this.state, this.checkEpisode(b));
  }
}

export const createShop: EnvFactory = (options) => new Shop(options);
