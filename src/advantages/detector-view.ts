/**
 * What the methods see of the milestone detector Φ under the detector settings (docs/maths.md §6):
 * Φ's per-step flags, rewritten run by run before any method reads them.
 *
 * Three settings act on Φ's output alone, so they apply to any batch (a rollout on the CPU or the GPU,
 * or the calculator's input), in this order:
 *   1. `milestoneStride` k: only every k-th fire of a run is kept (the k-th, 2k-th, …): coarser segments;
 *   2. `milestoneDelay` d: each kept fire moves d steps later, to the run's last step if the run ends
 *      first (two fires landing on one step are one fire: a flag is 0 or 1);
 *   3. `milestoneFalseAlarms` p: every step draws once from the detector's own stream, and a step where
 *      nothing fired fires with probability p. One draw per step whatever Φ said, so the stream's
 *      position depends only on the number of steps.
 * The other two detector settings change Φ itself, in the environment (`looseMilestones`,
 * `fineMilestones`: envs/<env>/milestones.ts); `selectDetector` is their batch form, for the calculator.
 */
import type { Rng } from '../prng.ts';

/** The settings that rewrite Φ's output (names, bounds and defaults: src/config.ts). */
export interface DetectorOutputSettings {
  milestoneFalseAlarms: number;
  milestoneDelay: number;
  milestoneStride: number;
}

/** Whether `settings` change anything (the defaults leave Φ's output as it is and draw nothing). */
export function rewritesDetector(settings: DetectorOutputSettings): boolean {
  return settings.milestoneFalseAlarms > 0 || settings.milestoneDelay > 0 || settings.milestoneStride > 1;
}

/** Keeps every `stride`-th fire of each run. */
export function strideMilestones(runOffsets: Int32Array, milestones: Uint8Array, stride: number): Uint8Array {
  const out = new Uint8Array(milestones.length);
  for (let i = 0; i + 1 < runOffsets.length; i++) {
    let count = 0;
    for (let t = runOffsets[i]; t < runOffsets[i + 1]; t++) if (milestones[t] && ++count % stride === 0) out[t] = 1;
  }
  return out;
}

/** Moves each fire `delay` steps later within its run (to the run's last step at the latest). */
export function delayMilestones(runOffsets: Int32Array, milestones: Uint8Array, delay: number): Uint8Array {
  const out = new Uint8Array(milestones.length);
  for (let i = 0; i + 1 < runOffsets.length; i++) {
    const last = runOffsets[i + 1] - 1;
    for (let t = runOffsets[i]; t <= last; t++) if (milestones[t]) out[Math.min(t + delay, last)] = 1;
  }
  return out;
}

/** Adds a fire with probability `p` on every step where none fired; one draw from `rng` per step. */
export function addFalseAlarms(milestones: Uint8Array, p: number, rng: Rng): Uint8Array {
  const out = milestones.slice();
  for (let t = 0; t < out.length; t++) if (rng.bernoulli(p) && !out[t]) out[t] = 1;
  return out;
}

/**
 * Φ's flags as the methods see them under `settings`. `rng`: the detector's own stream (a fork of the
 * run's seed), drawn only with false alarms on, so the task and action streams stay paired.
 */
export function detectorView(runOffsets: Int32Array, milestones: Uint8Array, settings: DetectorOutputSettings, rng: Rng | null): Uint8Array {
  if (!rewritesDetector(settings)) return milestones;
  let out = settings.milestoneStride > 1 ? strideMilestones(runOffsets, milestones, settings.milestoneStride) : milestones;
  if (settings.milestoneDelay > 0) out = delayMilestones(runOffsets, out, settings.milestoneDelay);
  if (settings.milestoneFalseAlarms > 0) {
    if (!rng) throw new Error('milestoneFalseAlarms > 0 needs the detector stream');
    out = addFalseAlarms(out, settings.milestoneFalseAlarms, rng);
  }
  return out;
}

/**
 * The batch form of the environment's detector choice (envs/types.ts `Detector`): given, per step, the
 * task detector's flags, the loose detector's (the right kind of side effect, any target) and the fine
 * detector's intermediate transitions, the flags Φ reports. Fine adds its transitions to the task
 * milestones; loose replaces them (it fires on every side effect of a milestone's kind, true ones included).
 */
export function selectDetector(task: Uint8Array, options: { loose?: Uint8Array; fine?: Uint8Array }): Uint8Array {
  if (options.loose) return options.loose.slice();
  if (!options.fine) return task;
  const fine = options.fine;
  return task.map((m, t) => (m || fine[t] ? 1 : 0));
}
