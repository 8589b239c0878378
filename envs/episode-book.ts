/**
 * The per-episode bookkeeping every environment shares, so that its rules are written once: task seeds
 * and actions are checked before anything changes, milestone dropout is decided per episode up front
 * (docs/maths.md §6), the next milestone advances when the environment's Φ says its condition holds
 * (§2), and an episode ends on success (all milestones) or at the step limit.
 *
 * It owns the report arrays of the VecEnv (milestone, milestonesReached, done, success, steps) and the
 * dropout bits; the environment owns its task state and passes in the arrays holding the true progress
 * and each episode's milestone count, which its state key and features read too. It knows nothing of
 * what a milestone means. Under the loose or fine detector (docs/maths.md §6) the environment also passes
 * that detector's own test of the step, and the book reports what that detector says instead.
 */
import type { Rng } from '../src/prng.ts';
import { DETECTOR_ONLY, type Detector } from './types.ts';

/** `fineStage` before the first intermediate transition of an episode. */
const NO_STAGE = 255;

/** Dropout decisions are kept as bits of a byte: bit k hides milestone k + 1. */
const MAX_DROPOUT_BITS = 8;

export class EpisodeBook {
  readonly envName: string;
  readonly batchSize: number;
  readonly maxSteps: number;
  readonly milestoneDropout: number;
  /** True milestones completed (dropout does not change the task's progress); owned by the environment's state. */
  readonly progress: Uint8Array;
  readonly numMilestones: Uint8Array;
  readonly milestone: Uint8Array;
  readonly milestonesReached: Uint8Array;
  readonly done: Uint8Array;
  readonly success: Uint8Array;
  readonly steps: Int32Array;
  /** Bit k set: milestone k + 1 of the episode is completed but not reported. */
  readonly dropped: Uint8Array;
  /** Which detector reports milestones (types.ts `Detector`). */
  readonly detector: Detector;
  /** Fine detector: the task stage (progress) whose intermediate transition has fired, else NO_STAGE. */
  readonly fineStage: Uint8Array;
  /** False until the first reset: no episode is live before it (done is all 1). */
  started = false;

  constructor(
    envName: string,
    batchSize: number,
    maxSteps: number,
    milestoneDropout: number,
    progress: Uint8Array,
    numMilestones: Uint8Array,
    detector: Detector = 'task',
  ) {
    this.envName = envName;
    this.batchSize = batchSize;
    this.maxSteps = maxSteps;
    this.milestoneDropout = milestoneDropout;
    this.progress = progress;
    this.numMilestones = numMilestones;
    const B = batchSize;
    this.milestone = new Uint8Array(B);
    this.milestonesReached = new Uint8Array(B);
    this.done = new Uint8Array(B).fill(1);
    this.success = new Uint8Array(B);
    this.steps = new Int32Array(B);
    this.dropped = new Uint8Array(B);
    this.detector = detector;
    this.fineStage = new Uint8Array(B).fill(NO_STAGE);
  }

  /** Throws a RangeError naming the field unless there is one integer seed in [0, 2³² − 1] per episode. */
  checkSeeds(taskSeeds: ArrayLike<number>): void {
    const B = this.batchSize;
    if (taskSeeds.length !== B) throw new RangeError(`${this.envName} reset: taskSeeds must have batchSize (${B}) entries; got ${taskSeeds.length}`);
    for (let b = 0; b < B; b++) {
      const seed = taskSeeds[b];
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
        throw new RangeError(`${this.envName} reset: taskSeeds[${b}] must be an integer in [0, 4294967295]; got ${seed}`);
      }
    }
  }

  /**
   * Starts episode b once its task is in place (progress 0, numMilestones set): makes `draws` dropout
   * draws from `rng` (none at p = 0, so a run without dropout draws nothing) and clears its report.
   */
  begin(b: number, rng: Rng, draws: number): void {
    if (draws > MAX_DROPOUT_BITS) throw new RangeError(`${this.envName}: at most ${MAX_DROPOUT_BITS} milestones per task; got ${draws}`);
    const p = this.milestoneDropout;
    let bits = 0;
    if (p > 0) for (let k = 0; k < draws; k++) if (rng.bernoulli(p)) bits |= 1 << k;
    this.dropped[b] = bits;
    this.fineStage[b] = NO_STAGE;
    this.milestone[b] = 0;
    this.milestonesReached[b] = 0;
    this.done[b] = 0;
    this.success[b] = 0;
    this.steps[b] = 0;
  }

  /**
   * Checks every live episode's action against the mask (B × actionsPerEpisode) before any is applied,
   * so a bad action leaves the whole batch untouched. `describe` names the command in the message.
   */
  checkActions(actions: Int32Array, mask: Uint8Array, actionsPerEpisode: number, describe?: (b: number, a: number) => string): void {
    if (!this.started) throw new Error(`${this.envName} step: call reset() first`);
    const B = this.batchSize;
    const A = actionsPerEpisode;
    if (actions.length < B) throw new RangeError(`${this.envName} step: actions must have batchSize (${B}) entries; got ${actions.length}`);
    for (let b = 0; b < B; b++) {
      if (this.done[b]) continue;
      const a = actions[b];
      if (!(a >= 0 && a < A && mask[b * A + a] === 1)) {
        const what = describe !== undefined && Number.isInteger(a) && a >= 0 && a < A ? ` ("${describe(b, a)}")` : '';
        throw new RangeError(`${this.envName} step: action ${a}${what} is not admissible in episode ${b} (step ${this.steps[b]})`);
      }
    }
  }

  /**
   * Books one applied step of live episode b. `reached`: Φ found the condition of the episode's next
   * milestone true in the state after the step (docs/maths.md §2). Advances progress, reports the
   * milestone unless it was dropped, and ends the episode on its last milestone or at the step limit.
   * Returns whether progress advanced.
   *
   * `sideEffect`: the loose or fine detector's own test of the step (the environment computes it only
   * under that detector). Loose: the step had a side effect of a milestone's kind, any target; it is
   * reported in place of the task milestone (a dropped task milestone hides it too). Fine: the step made
   * an intermediate transition of the current stage; the first one of each stage is reported besides
   * the task milestones.
   */
  record(b: number, reached: boolean, sideEffect = false): boolean {
    this.steps[b]++;
    this.milestone[b] = 0;
    const k = this.progress[b];
    const dropped = reached && ((this.dropped[b] >> k) & 1) === 1;
    if (this.detector === 'loose' && sideEffect && !dropped) this.milestone[b] = DETECTOR_ONLY;
    if (this.detector === 'fine' && sideEffect && !reached && this.fineStage[b] !== k) {
      this.fineStage[b] = k;
      this.milestone[b] = DETECTOR_ONLY;
    }
    if (reached) {
      this.progress[b] = k + 1;
      if (!dropped) {
        // The loose detector reports only what it reads: a true milestone of a kind it does not read is not seen.
        if (this.detector !== 'loose' || sideEffect) this.milestone[b] = k + 1;
        this.milestonesReached[b]++;
      }
      if (k + 1 === this.numMilestones[b]) {
        this.done[b] = 1;
        this.success[b] = 1;
      }
    }
    if (this.steps[b] >= this.maxSteps) this.done[b] = 1;
    return reached;
  }
}
