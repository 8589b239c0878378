/**
 * Data shapes of the advantage estimators (docs/maths.md §2–4).
 *
 * A batch is offset-indexed, not padded: runs of variable length are laid end to end, `runOffsets`
 * marks where each run's steps start, and `groupOffsets` marks where each group's runs start. The same
 * layout feeds the CPU reference here and the WGSL kernels, so the two can be compared element by element.
 */

export const NORMALIZATIONS = ['meanStd', 'mean'] as const;
export type Normalize = (typeof NORMALIZATIONS)[number];
/** `perStepReturn`: the paper's formula (default). `stepMean`: the released code's variant. docs/maths.md §4. */
export const SEGMENT_BASELINES = ['perStepReturn', 'stepMean'] as const;
export type SegmentBaseline = (typeof SEGMENT_BASELINES)[number];
/**
 * `paper`: the formulas of docs/maths.md §4 (default). `released`: the released reference code, §4
 * "Reference-code variants" items 1–4 (row-weighted trajectory statistics, (group, segment index)
 * keyed segment baselines, both terms normalised). GiGPO has the same two variants (§7).
 */
export const VARIANTS = ['paper', 'released'] as const;
export type Variant = (typeof VARIANTS)[number];

export interface AdvantageBatch {
  /** numGroups + 1 entries: runs groupOffsets[g] … groupOffsets[g+1]−1 form group g (G ≥ 2 each). */
  groupOffsets: Int32Array;
  /** numRuns + 1 entries: steps runOffsets[i] … runOffsets[i+1]−1 belong to run i (length ≥ 1). */
  runOffsets: Int32Array;
  /** One entry per step: 1 where the milestone detector Φ fired on that step. */
  milestones: Uint8Array;
  /** One entry per run: the final reward R_i (success reward on success, else 0). */
  rewards: Float32Array | Float64Array;
  /** One entry per step: the environment's state key (methods whose spec needs stateKeys: GiGPO, §7). */
  stateKeys?: Uint32Array;
  /** One entry per step: the critic's value V(s_t) (methods whose spec needs values: critic PPO, §8). */
  values?: Float32Array | Float64Array;
  /** Per run, from the rollout: solved or not, milestones reached, the task's milestones (a visitor's estimator reads them). */
  success?: Uint8Array;
  milestonesReached?: Uint8Array;
  numMilestones?: Uint8Array;
}

/**
 * What the dual-scale estimator of docs/maths.md §4 computes for a method: given by the method's spec
 * (src/methods/), read by the CPU reference (estimators.ts) and the WGSL kernels (src/gpu/) alike.
 */
export interface EstimatorSwitches {
  /** Add λ · the segment term A_seg to the trajectory term (BEACON); off, A = A_traj alone (GRPO). */
  readonly segmentTerm: boolean;
}

export interface AdvantageSettings {
  /**
   * A key of the method registry (src/methods/registry.ts), which picks the estimator; the estimator's
   * switches (`EstimatorSwitches`) come with the method's spec, never from this name.
   */
  method: string;
  /** Discount γ inside completed segments, 0…1 (docs/maths.md §3). */
  gamma: number;
  /** Weight λ of the segment term, ≥ 0. */
  lambda: number;
  /** Milestone reward R_ms, > 0. */
  rMs: number;
  /** Trajectory-term normalisation. */
  normalize: Normalize;
  /** Segment baseline. */
  segmentBaseline: SegmentBaseline;
  /** Include A_traj in A (off = the "no trajectory term" ablation). */
  trajectoryTerm: boolean;
  /**
   * `paper` (default when absent) or `released` (docs/maths.md §4, reference-code variants). Under
   * `released` the segment term is always the (group, segment index) keyed mean, so `segmentBaseline`
   * is not consulted; `normalize` applies to both terms; GRPO keeps the (row-weighted) trajectory term.
   */
  variant?: Variant;
  /** GiGPO: weight ω of the step term (docs/maths.md §7). */
  omega?: number;
  /** Critic PPO: GAE's discount γ and λ_GAE, and the ablation's milestone reward (0 = off; §8). */
  gaeGamma?: number;
  gaeLambda?: number;
  shapedRewards?: boolean;
}

/**
 * A method's advantages and the parts they are made of. The parts keep BEACON's names; other methods
 * fill them with their own terms, named in their spec's `parts` (GiGPO: A_E per run, A_S per step, R_t).
 */
export interface AdvantageResult {
  /** Per step: A(i, t) = A_traj(i) + λ · A_seg(i, t) (or the parts the settings keep). */
  advantages: Float64Array;
  /** Per run: A_traj(i) as it enters A (0 when the trajectory term is off). */
  trajectoryAdvantages: Float64Array;
  /** Per step: A_seg(i, t) before λ (0 under GRPO). */
  segmentAdvantages: Float64Array;
  /** Per step: shaped reward r_t (0 under GRPO, which shapes nothing). */
  shapedRewards: Float64Array;
  /** Share of steps whose state was also visited in another step of its group (GiGPO, §7). */
  anchorCoverage?: number;
}

/** |A| below this counts as zero in every metric (docs/maths.md §5). */
export const ZERO_ADVANTAGE = 1e-6;
/** ε in the meanStd normalisation (docs/maths.md §4). */
export const STD_EPSILON = 1e-6;

export function numRuns(batch: AdvantageBatch): number {
  return batch.runOffsets.length - 1;
}
export function numGroups(batch: AdvantageBatch): number {
  return batch.groupOffsets.length - 1;
}
export function numSteps(batch: AdvantageBatch): number {
  return batch.runOffsets[batch.runOffsets.length - 1];
}

/**
 * Checks the batch's structure; throws a RangeError naming what is wrong. `milestonesOnGpu`: the flags
 * are read from a GPU rollout's record instead of `batch.milestones` (src/gpu/advantage-tensors.ts),
 * which is then not checked (or read).
 */
export function validateBatch(batch: AdvantageBatch, milestonesOnGpu = false): void {
  const { groupOffsets, runOffsets, rewards } = batch;
  if (groupOffsets.length < 2) throw new RangeError('groups: need at least one group');
  if (groupOffsets[0] !== 0) throw new RangeError('groupOffsets must start at 0');
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    if (groupOffsets[g + 1] - groupOffsets[g] < 2) {
      throw new RangeError(`groups[${g}]: a group needs at least 2 runs (G ≥ 2), got ${groupOffsets[g + 1] - groupOffsets[g]}`);
    }
  }
  const runs = groupOffsets[groupOffsets.length - 1];
  if (runOffsets.length !== runs + 1) throw new RangeError(`runOffsets must have ${runs + 1} entries, got ${runOffsets.length}`);
  if (rewards.length !== runs) throw new RangeError(`rewards must have ${runs} entries, got ${rewards.length}`);
  if (runOffsets[0] !== 0) throw new RangeError('runOffsets must start at 0');
  for (let i = 0; i < runs; i++) {
    if (runOffsets[i + 1] - runOffsets[i] < 1) throw new RangeError(`run ${i}: a run needs at least 1 step`);
    if (!Number.isFinite(rewards[i])) throw new RangeError(`run ${i}: reward must be a finite number, got ${rewards[i]}`);
  }
  if (milestonesOnGpu) return;
  const { milestones } = batch;
  if (milestones.length !== runOffsets[runs]) {
    throw new RangeError(`milestones must have one entry per step (${runOffsets[runs]}), got ${milestones.length}`);
  }
  for (let t = 0; t < milestones.length; t++) {
    if (milestones[t] > 1) throw new RangeError(`milestones[${t}] must be 0 or 1, got ${milestones[t]}`);
  }
}
