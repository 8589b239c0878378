/**
 * GiGPO (group-in-group policy optimisation), CPU reference: docs/maths.md §7.
 *
 *   r_t      = R_i at the last step of run i, 0 elsewhere
 *   R_t      = Σ_{s ≥ t} γ^(s − t) r_s                       discounted step return
 *   A_E(i)   = (R_i − mean_g R) / F_norm                     episode term over the group's runs
 *   A_S(i,t) = (R_t − mean_sg R) / F_norm                    step term over the step group sg of (i, t)
 *   A(i,t)   = A_E(i) + ω · A_S(i,t)
 *
 * A step group ("anchor state") is every step of one group, of any run, whose environment state key is
 * identical; repeated visits inside one run are separate members. F_norm = std + ε (n − 1) for
 * `meanStd`, 1 for `mean`. A one-step group gets A_S = 0; ties give exactly 0 (shifted means). Under
 * `variant: "released"` the episode statistics are taken over step rows (§4, reference-code item 1),
 * so the episode term is BEACON's released trajectory term; under `paper` it is GRPO's trajectory term.
 *
 * Input: an AdvantageBatch (its milestones are not used) and one state key per step. The step-group
 * index built here once per batch is also what the WGSL path consumes (src/gpu/gigpo-estimator.ts).
 */
import { keyedAdvantages } from './group-stats.ts';
import { rowWeightedTrajectoryAdvantages } from './released.ts';
import { trajectoryAdvantages } from './trajectory.ts';
import { numSteps, STD_EPSILON, validateBatch, type AdvantageBatch, type Normalize, type Variant } from './types.ts';

export interface GigpoSettings {
  /** Discount γ of the step returns R_t, 0…1 (docs/maths.md §7; default 0.95). */
  gamma: number;
  /** Weight ω of the step term A_S, ≥ 0 (default 1; 0 leaves the episode term alone). */
  omega: number;
  /** F_norm of both terms: `meanStd` divides by std + ε, `mean` by 1 (the released `mean_norm`). */
  normalize: Normalize;
  /** `paper` (episode statistics over runs) or `released` (over step rows, length-weighted). */
  variant: Variant;
}

export interface GigpoResult {
  /** Per step: A(i, t) = A_E(i) + ω · A_S(i, t). */
  advantages: Float64Array;
  /** Per run: A_E(i). */
  episodeAdvantages: Float64Array;
  /** Per step: A_S(i, t) before ω (0 for a step alone in its step group). */
  stepAdvantages: Float64Array;
  /** Per step: the discounted step return R_t. */
  stepReturns: Float64Array;
  /** Share of steps whose step group has more than one member (anchor-state coverage, §7). */
  anchorCoverage: number;
}

/**
 * The compact key index of a batch's step groups, built once per batch on the CPU (also uploaded as
 * is by the WGSL path). Step groups are numbered in order of first appearance, so each batch group's
 * step groups form one contiguous id range; members are listed in step order.
 */
export interface StepGroupIndex {
  numStepGroups: number;
  /** Per step: its step group's dense id. */
  stepGroupOf: Int32Array;
  /** numStepGroups + 1 entries: members[offsets[s] … offsets[s+1]−1] are step group s's steps. */
  offsets: Int32Array;
  /** Step indices, grouped by step group, ascending inside each. */
  members: Int32Array;
}

/** Checks `stateKeys` against the batch; throws a RangeError naming what is wrong. */
function validateStateKeys(batch: AdvantageBatch, stateKeys: ArrayLike<number>): void {
  const steps = numSteps(batch);
  if (stateKeys.length !== steps) throw new RangeError(`stateKeys must have one entry per step (${steps}), got ${stateKeys.length}`);
  for (let t = 0; t < steps; t++) {
    const k = stateKeys[t];
    if (!Number.isInteger(k) || k < 0 || k > 0xffffffff) throw new RangeError(`stateKeys[${t}] must be an integer in [0, 2^32 − 1], got ${k}`);
  }
}

export function buildStepGroupIndex(batch: AdvantageBatch, stateKeys: ArrayLike<number>): StepGroupIndex {
  validateStateKeys(batch, stateKeys);
  const { groupOffsets, runOffsets } = batch;
  const steps = numSteps(batch);
  const stepGroupOf = new Int32Array(steps);
  const counts = new Int32Array(steps); // a batch has at most as many step groups as steps
  let numStepGroups = 0;
  // State key → step group id, per batch group: an open-addressing hash table (linear probing,
  // load ≤ 1/2), reused across groups and cleared slot by slot. A JS Map is ~5× slower at 10^6 steps.
  let bits = 4;
  let slotKey = new Uint32Array(1 << bits);
  let slotId = new Int32Array(1 << bits).fill(-1);
  const usedSlots = new Int32Array(steps);
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    const from = runOffsets[groupOffsets[g]];
    const to = runOffsets[groupOffsets[g + 1]];
    if (2 * (to - from) > 1 << bits) {
      while (2 * (to - from) > 1 << bits) bits++;
      slotKey = new Uint32Array(1 << bits);
      slotId = new Int32Array(1 << bits).fill(-1);
    }
    const mask = (1 << bits) - 1;
    let used = 0;
    for (let t = from; t < to; t++) {
      const key = stateKeys[t] >>> 0;
      let h = Math.imul(key, 0x9e3779b1) >>> (32 - bits); // Fibonacci hashing: the product's top bits
      let id = slotId[h];
      while (id >= 0 && slotKey[h] !== key) {
        h = (h + 1) & mask;
        id = slotId[h];
      }
      if (id < 0) {
        id = numStepGroups++;
        slotId[h] = id;
        slotKey[h] = key;
        usedSlots[used++] = h;
      }
      stepGroupOf[t] = id;
      counts[id]++;
    }
    for (let u = 0; u < used; u++) slotId[usedSlots[u]] = -1;
  }
  const offsets = new Int32Array(numStepGroups + 1);
  for (let sg = 0; sg < numStepGroups; sg++) offsets[sg + 1] = offsets[sg] + counts[sg];
  const members = new Int32Array(steps);
  const cursor = offsets.slice(0, numStepGroups);
  for (let t = 0; t < steps; t++) members[cursor[stepGroupOf[t]]++] = t;
  return { numStepGroups, stepGroupOf, offsets, members };
}

/** Share of steps in step groups larger than one (0 for an empty index). */
export function anchorCoverage(index: StepGroupIndex): number {
  const steps = index.members.length;
  let shared = 0;
  for (let s = 0; s < index.numStepGroups; s++) {
    const n = index.offsets[s + 1] - index.offsets[s];
    if (n > 1) shared += n;
  }
  return steps === 0 ? 0 : shared / steps;
}

/**
 * R_t = Σ_{s ≥ t} γ^(s − t) r_s with r = R_i at the run's last step only, by the backward recursion
 * R_t = r_t + γ R_{t+1} (so R_t = R_i γ^(T_i − 1 − t), one multiplication per step, as the kernel does).
 */
export function stepReturns(batch: AdvantageBatch, gamma: number): Float64Array {
  const { runOffsets, rewards } = batch;
  const out = new Float64Array(numSteps(batch));
  for (let i = 0; i + 1 < runOffsets.length; i++) {
    let ret = rewards[i];
    for (let t = runOffsets[i + 1] - 1; t >= runOffsets[i]; t--) {
      out[t] = ret;
      ret *= gamma;
    }
  }
  return out;
}

function checkSettings(s: GigpoSettings): void {
  if (!(s.gamma >= 0 && s.gamma <= 1)) throw new RangeError(`gamma must be in [0, 1], got ${s.gamma}`);
  if (!(s.omega >= 0 && Number.isFinite(s.omega))) throw new RangeError(`omega must be a finite number ≥ 0, got ${s.omega}`);
}

/**
 * GiGPO's advantages for a batch: the one CPU entry point. `stateKeys` has one key per step (the
 * environment's state key); `index` may be passed when already built for this batch and these keys.
 */
export function computeGigpo(batch: AdvantageBatch, stateKeys: ArrayLike<number>, settings: GigpoSettings, index?: StepGroupIndex): GigpoResult {
  validateBatch(batch);
  checkSettings(settings);
  const sg = index ?? buildStepGroupIndex(batch, stateKeys);
  const aE = settings.variant === 'released' ? rowWeightedTrajectoryAdvantages(batch, settings.normalize) : trajectoryAdvantages(batch, settings.normalize);
  const returns = stepReturns(batch, settings.gamma);
  const aS = keyedAdvantages(returns, sg.stepGroupOf, sg.numStepGroups, settings.normalize, STD_EPSILON);
  const advantages = new Float64Array(returns.length);
  const { runOffsets } = batch;
  for (let i = 0; i + 1 < runOffsets.length; i++) {
    for (let t = runOffsets[i]; t < runOffsets[i + 1]; t++) advantages[t] = aE[i] + settings.omega * aS[t];
  }
  return { advantages, episodeAdvantages: aE, stepAdvantages: aS, stepReturns: returns, anchorCoverage: anchorCoverage(sg) };
}
