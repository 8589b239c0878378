/**
 * The part of a VecEnv (types.ts) every environment shares: its shape, the per-episode arrays and the
 * episode bookkeeping (episode-book.ts), declared and wired once. An environment extends it, builds its
 * task state first (which owns the true progress and each episode's milestone count), hands the shared
 * part what it needs, and writes its own reset, step, oracle and text.
 */
import type { Rng } from '../src/prng.ts';
import { EpisodeBook } from './episode-book.ts';
import type { Detector, Horizon, VecEnv } from './types.ts';

/** What an environment tells the shared part about itself, once its task state exists. */
export interface EnvShape {
  name: string;
  horizon: Horizon;
  batchSize: number;
  milestoneDropout: number;
  /** Which detector reports milestones (types.ts `Detector`). */
  detector: Detector;
  obsDim: number;
  actionDim: number;
  maxActions: number;
  maxSteps: number;
  maxMilestones: number;
  /** B: true milestones completed, owned by the environment's state (its features and key read it). */
  progress: Uint8Array;
  /** B: milestones of each episode's task, owned by the environment's state. */
  numMilestones: Uint8Array;
  /** B × obsDim, when the environment's feature writer owns it (else allocated here). */
  obs?: Float32Array;
  /** B × maxActions × actionDim, when the environment's feature writer owns it (else allocated here). */
  actionFeatures?: Float32Array;
}

export abstract class BaseVecEnv implements VecEnv {
  readonly name: string;
  readonly horizon: Horizon;
  readonly batchSize: number;
  readonly obsDim: number;
  readonly actionDim: number;
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

  /** Seeds, dropout, progress, done and success of every episode (episode-book.ts). */
  protected readonly book: EpisodeBook;

  protected constructor(shape: EnvShape) {
    const B = shape.batchSize;
    this.name = shape.name;
    this.horizon = shape.horizon;
    this.batchSize = B;
    this.obsDim = shape.obsDim;
    this.actionDim = shape.actionDim;
    this.maxActions = shape.maxActions;
    this.maxSteps = shape.maxSteps;
    this.maxMilestones = shape.maxMilestones;
    this.obs = shape.obs ?? new Float32Array(B * shape.obsDim);
    this.actionFeatures = shape.actionFeatures ?? new Float32Array(B * shape.maxActions * shape.actionDim);
    this.actionMask = new Uint8Array(B * shape.maxActions);
    this.stateKey = new Uint32Array(B);
    this.numMilestones = shape.numMilestones;
    this.book = new EpisodeBook(shape.name, B, shape.maxSteps, shape.milestoneDropout, shape.progress, shape.numMilestones, shape.detector);
    ({ milestone: this.milestone, milestonesReached: this.milestonesReached, done: this.done, success: this.success, steps: this.steps } = this.book);
  }

  get detector(): Detector {
    return this.book.detector;
  }

  get milestoneDropout(): number {
    return this.book.milestoneDropout;
  }

  /** B: each episode's milestone-dropout bits, drawn at reset (bit k hides milestone k + 1); a GPU rollout uploads them. */
  get droppedMilestones(): Uint8Array {
    return this.book.dropped;
  }

  /** `b` if it names an episode of a started batch; else an error saying what is wrong. */
  protected checkEpisode(b: number): number {
    if (!Number.isInteger(b) || b < 0 || b >= this.batchSize) throw new RangeError(`episode must be an integer in [0, ${this.batchSize}); got ${b}`);
    if (!this.book.started) throw new Error(`${this.name}: call reset() first`);
    return b;
  }

  /** `a` if it names an action slot; else a RangeError naming the range. */
  protected checkAction(a: number): number {
    if (!Number.isInteger(a) || a < 0 || a >= this.maxActions) throw new RangeError(`action must be an integer in [0, ${this.maxActions}); got ${a}`);
    return a;
  }

  abstract reset(taskSeeds: ArrayLike<number>, rng: Rng): void;
  abstract step(actions: Int32Array): void;
  abstract oracleActions(out: Int32Array): void;
  abstract describeTask(b: number): string;
  abstract describeObservation(b: number): string;
  abstract describeAction(b: number, a: number): string;
  abstract describeMilestones(b: number): string[];
}
