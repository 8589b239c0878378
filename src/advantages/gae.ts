/**
 * Generalised advantage estimation for PPO with a learned critic: docs/maths.md §8. A pure function of
 * the batch and the critic's values; the critic network itself lives elsewhere.
 *
 *   r_t = R_i at the last step of run i, 0 elsewhere (GiGPO's r_t, §7)
 *         + R_ms at every milestone step when `milestoneReward` = R_ms > 0 ("shaped-reward PPO")
 *   δ_t = r_t + γ V(s_{t+1}) − V(s_t),           V(s_{T_i}) = 0
 *   Â_t = δ_t + γ λ_GAE Â_{t+1},                 Â_{T_i} = 0
 *   returns_t = Â_t + V(s_t)                       (the critic's regression target, before normalising)
 *   A_t = (Â_t − mean) / (std + ε) over every step of the batch (sample std, n − 1; ties give 0)
 *
 * Bootstrap 0 at the end of every run, success or step limit alike. A run that hits the step limit
 * ends as a failure with reward 0, the limit is part of the task, and the batch holds no observation
 * after a run's last step to evaluate V on; treating the limit as terminal is the usual choice for
 * fixed-horizon tasks (CleanRL's ppo.py does the same with its `dones`).
 */
import { allEqual, sampleStd, shiftedMean } from './group-stats.ts';
import { numSteps, STD_EPSILON, validateBatch, type AdvantageBatch } from './types.ts';

export interface GaeSettings {
  /** Discount γ, 0…1 (default 0.99). */
  gamma: number;
  /** λ_GAE, 0…1 (default 0.95): 0 gives one-step TD errors, 1 Monte-Carlo returns minus V. */
  lambdaGae: number;
  /** R_ms added to r_t at milestone steps; 0 (default) = plain critic PPO. */
  milestoneReward: number;
}

export const DEFAULT_GAE_SETTINGS: GaeSettings = { gamma: 0.99, lambdaGae: 0.95, milestoneReward: 0 };

export interface GaeResult {
  /** Per step: Â_t normalised over the batch, for the policy loss. */
  advantages: Float64Array;
  /** Per step: Â_t before normalisation. */
  rawAdvantages: Float64Array;
  /** Per step: Â_t + V(s_t), the value target. */
  returns: Float64Array;
  /** Per step: r_t as used. */
  rewards: Float64Array;
}

export function computeGae(batch: AdvantageBatch, values: ArrayLike<number>, settings: GaeSettings): GaeResult {
  validateBatch(batch);
  const steps = numSteps(batch);
  if (values.length !== steps) throw new RangeError(`values must have one entry per step (${steps}), got ${values.length}`);
  for (let t = 0; t < steps; t++) if (!Number.isFinite(values[t])) throw new RangeError(`values[${t}] must be a finite number, got ${values[t]}`);
  const { gamma, lambdaGae, milestoneReward } = settings;
  if (!(gamma >= 0 && gamma <= 1)) throw new RangeError(`gamma must be in [0, 1], got ${gamma}`);
  if (!(lambdaGae >= 0 && lambdaGae <= 1)) throw new RangeError(`lambdaGae must be in [0, 1], got ${lambdaGae}`);
  if (!(milestoneReward >= 0 && Number.isFinite(milestoneReward))) throw new RangeError(`milestoneReward must be a finite number ≥ 0, got ${milestoneReward}`);

  const { runOffsets, rewards: R, milestones } = batch;
  const rewards = new Float64Array(steps);
  const raw = new Float64Array(steps);
  const returns = new Float64Array(steps);
  for (let i = 0; i + 1 < runOffsets.length; i++) {
    const start = runOffsets[i];
    const end = runOffsets[i + 1];
    let nextValue = 0; // V(s_{T_i}) = 0: bootstrap 0 at the run's end
    let nextAdvantage = 0;
    for (let t = end - 1; t >= start; t--) {
      rewards[t] = (t === end - 1 ? R[i] : 0) + (milestones[t] ? milestoneReward : 0);
      const delta = rewards[t] + gamma * nextValue - values[t];
      raw[t] = delta + gamma * lambdaGae * nextAdvantage;
      returns[t] = raw[t] + values[t];
      nextValue = values[t];
      nextAdvantage = raw[t];
    }
  }
  const advantages = new Float64Array(steps);
  if (!allEqual(raw, 0, steps)) {
    const mean = shiftedMean(raw, 0, steps);
    const scale = sampleStd(raw, 0, steps, mean) + STD_EPSILON;
    for (let t = 0; t < steps; t++) advantages[t] = (raw[t] - mean) / scale;
  }
  return { advantages, rawAdvantages: raw, returns, rewards };
}
