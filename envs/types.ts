/**
 * The one interface every Beacon Live environment implements.
 *
 * Environments are vectorised: one object steps a batch of B episodes, keeping all per-episode state in
 * typed arrays that it owns and rewrites in place, so the rollout hot path allocates nothing. They know
 * nothing of the DOM, Lit or tfjs, and run the same in Node and in the page.
 *
 * The milestone detector Φ (docs/maths.md §2) lives inside the environment: after each step it reads the
 * environment's own state change and reports which sub-goal, if any, the transition completed.
 */
import type { Rng } from '../src/prng.ts';

export const HORIZONS = ['tiny', 'short', 'medium', 'long'] as const;
export type Horizon = (typeof HORIZONS)[number];

export interface EnvOptions {
  /** Task length: more milestones and longer optimal plans as it grows; `tiny` is learnable in a few iterations. */
  horizon: Horizon;
  /** Number of episodes stepped together (B), 1…4096. */
  batchSize: number;
  /** Probability that each detected milestone is dropped (not reported), docs/maths.md §6. 0…1, default 0. */
  milestoneDropout?: number;
  /**
   * Which detector Φ reports milestones (docs/maths.md §6): `task` (default) its task milestones; `loose`
   * a gameable one that fires on any side effect of a milestone's kind, whatever its target; `fine` the
   * task milestones plus verifiable intermediate transitions between them. Each is defined in the
   * environment's milestone module. Progress, success and `milestonesReached` always follow the task.
   */
  detector?: Detector;
}

export const DETECTORS = ['task', 'loose', 'fine'] as const;
export type Detector = (typeof DETECTORS)[number];

/** A snapshot of one GridHouse episode for drawing (the page's canvas); absent for text environments. */
/** The shop's page types (envs/shop/state.ts PAGE_NAMES holds them in order). */
export type ShopPage = 'search' | 'results' | 'item';

/** A snapshot of the page the shop's agent sees, for the episode view. */
export interface ShopFrame {
  page: ShopPage;
  /** The instruction of the order line being shopped for. */
  instruction: string;
  line: number;
  lines: number;
  /** Search page: the candidate queries. */
  queries: string[];
  /** Results page: the query, the page number (1-based), page count and the products listed. */
  query: string;
  resultsPage: number;
  resultsPages: number;
  products: { code: string; title: string; price: number }[];
  /** Item page: the product, its price, its option values by dimension and which are selected. */
  item: { code: string; title: string; price: number; options: { dimension: string; values: { name: string; selected: boolean }[] }[] } | null;
  limit: number;
}

export interface GridFrame {
  width: number;
  height: number;
  /** Row-major, one character per cell: '#' wall, '.' floor, '+' open door, 'D' closed door, 'L' locked door. */
  tiles: string;
  agent: { x: number; y: number };
  /** Objects and appliances still on the map, with a short label ("apple", "microwave", "red key"). */
  items: { x: number; y: number; kind: string; label: string }[];
  /** Label of the carried object, or null. */
  carrying: string | null;
}

export interface VecEnv {
  readonly name: string;
  readonly horizon: Horizon;
  /** B: episodes stepped together. */
  readonly batchSize: number;
  /** Length of one episode's observation feature vector. */
  readonly obsDim: number;
  /** Length of one candidate action's feature vector. */
  readonly actionDim: number;
  /** A: candidate action slots per episode (admissible ones are flagged in `actionMask`). */
  readonly maxActions: number;
  /** Step limit: an episode that has not succeeded after this many steps ends as a failure. */
  readonly maxSteps: number;
  /** Upper bound on the number of milestones M of any task at this horizon. */
  readonly maxMilestones: number;
  /** Which detector Φ reports `milestone` (docs/maths.md §6). */
  readonly detector: Detector;
  /** p: the probability that a milestone is completed but not reported (docs/maths.md §6); 0 draws nothing at reset. */
  readonly milestoneDropout: number;

  // ---- Per-episode state, rewritten in place by reset() and step(). B = batchSize, A = maxActions. ----
  /** B × obsDim observation features of the current state. */
  readonly obs: Float32Array;
  /** B × A × actionDim features of each candidate action in the current state. */
  readonly actionFeatures: Float32Array;
  /** B × A, 1 where the candidate is admissible. A live episode always has at least one. */
  readonly actionMask: Uint8Array;
  /** B: integer key identifying the full current state within the episode's task instance. */
  readonly stateKey: Uint32Array;
  /** B: number of milestones M of the episode's task (in task order 1..M). */
  readonly numMilestones: Uint8Array;
  /** B: after step(), the task-order index (1..M) of the milestone this transition completed and that
   *  survived dropout, else 0. Each milestone fires at most once per episode, in task order. Under the
   *  loose or fine detector, a fire that completes no task milestone reports DETECTOR_ONLY. */
  readonly milestone: Uint8Array;
  /** B: milestones reported so far in the episode (after dropout). */
  readonly milestonesReached: Uint8Array;
  /** B: 1 once the episode has ended (success or step limit). */
  readonly done: Uint8Array;
  /** B: 1 if the episode ended by completing its task. */
  readonly success: Uint8Array;
  /** B: steps taken so far in the episode. */
  readonly steps: Int32Array;
  /** B: the episode's graded outcome in [0, 1], 1 exactly on success, for an environment whose reward is
   *  graded (the shop: WebShop's purchase reward, docs/maths.md §10); absent: the outcome is `success`. */
  readonly outcome?: Float32Array;

  /**
   * Starts B new episodes. Episodes with equal task seeds get the same task instance (layout, goal), so
   * a GRPO group is G equal seeds. `rng` draws the per-episode milestone-dropout decisions.
   */
  reset(taskSeeds: ArrayLike<number>, rng: Rng): void;
  /** Applies one action index per episode; episodes already done ignore theirs. Throws on an
   *  inadmissible action of a live episode. */
  step(actions: Int32Array): void;
  /** Writes, for every live episode, the index of an action of a plan that solves its task. */
  oracleActions(out: Int32Array): void;

  // ---- Text, built only when asked for (never in the training hot path). ----
  /** The task as a sentence ("heat an apple and put it on the table"). */
  describeTask(b: number): string;
  /** The current observation as text (GridHouse: a short description plus an ASCII map). */
  describeObservation(b: number): string;
  /** Candidate action `a` of episode `b` as a text command. */
  describeAction(b: number, a: number): string;
  /** Names of the task's milestones in order (length numMilestones[b]). */
  describeMilestones(b: number): string[];
  /** Drawing snapshot (GridHouse only). */
  renderFrame?(b: number): GridFrame;
  /** The web page on screen (Shop only), for the episode view. */
  renderPage?(b: number): ShopFrame;
}

/** `milestone` of a step where a loose or fine detector fired but no task milestone completed. */
export const DETECTOR_ONLY = 255;

export type EnvFactory = (options: EnvOptions) => VecEnv;

/** The most episodes one environment steps together (a training iteration's runs, B). */
export const MAX_BATCH_SIZE = 4096;

/** Throws a RangeError naming the field and its allowed range; shared by every environment. */
export function validateEnvOptions(options: EnvOptions): Required<EnvOptions> {
  const { horizon, batchSize } = options;
  const milestoneDropout = options.milestoneDropout ?? 0;
  const detector = options.detector ?? 'task';
  if (!(HORIZONS as readonly string[]).includes(horizon)) {
    throw new RangeError(`horizon must be one of ${HORIZONS.join(', ')}; got ${JSON.stringify(horizon)}`);
  }
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    throw new RangeError(`batchSize must be an integer in [1, ${MAX_BATCH_SIZE}]; got ${batchSize}`);
  }
  if (!(milestoneDropout >= 0 && milestoneDropout <= 1)) {
    throw new RangeError(`milestoneDropout must be a number in [0, 1]; got ${milestoneDropout}`);
  }
  if (!(DETECTORS as readonly string[]).includes(detector)) {
    throw new RangeError(`detector must be one of ${DETECTORS.join(', ')}; got ${JSON.stringify(detector)}`);
  }
  return { horizon, batchSize, milestoneDropout, detector };
}
