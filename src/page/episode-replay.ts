/**
 * Replays one run of a batch snapshot in a batch-1 environment, for the episode viewer.
 *
 * A run is fixed by its task seed and its actions: resetting with the seed rebuilds the task instance
 * and stepping the recorded actions retraces the episode exactly. The replay environment has no milestone
 * dropout, so it detects every milestone; the run's recorded milestones (what training saw, after any
 * dropout) say which ones light up, and a detected one that was not recorded was dropped.
 */
import { envEntry, type GridFrame, type ShopFrame } from '../../envs/index.ts';
import { DETECTOR_ONLY } from '../../envs/types.ts';
import { Rng } from '../prng.ts';
import type { BatchSnapshot } from '../worker/batch-snapshot.ts';

export { DETECTOR_ONLY };

export interface Replay {
  run: number;
  task: string;
  milestoneNames: string[];
  /** Text of each state, before each step and after the last: steps + 1 entries. */
  observations: string[];
  /** Frames for the map view, like `observations`; null where the environment's episode view is a transcript. */
  frames: GridFrame[] | null;
  /** Shop pages, like `observations`; null for other environments. */
  pages: ShopFrame[] | null;
  /** Action slot of each step. */
  slots: number[];
  /** Text command of each step. */
  actions: string[];
  /** Per step: milestone index (1..M) recorded in training on this step, DETECTOR_ONLY for a loose or fine
   *  detector's fire that completed no task milestone, else 0. */
  recorded: number[];
  /** Per step: milestone index the replay environment detected (no dropout), else 0. */
  detected: number[];
  success: boolean;
}

export function replayRun(snapshot: BatchSnapshot, run: number): Replay {
  const from = snapshot.runOffsets[run];
  const to = snapshot.runOffsets[run + 1];
  if (!(run >= 0 && to !== undefined)) throw new RangeError(`run ${run} is not in the batch (${snapshot.runOffsets.length - 1} runs)`);
  const entry = envEntry(snapshot.env);
  // The run's detector (docs/maths.md §6), so a loose or fine fire is found on its step too.
  const env = entry.create({ horizon: snapshot.horizon, batchSize: 1, milestoneDropout: 0, detector: snapshot.detector ?? 'task' });
  env.reset([snapshot.taskSeeds[run]], new Rng(0));
  // The environment's registry entry says how its runs are drawn (envs/<env>/entry.ts).
  const frames: GridFrame[] | null = entry.episodeView === 'map' && env.renderFrame ? [] : null;
  const pages: ShopFrame[] | null = entry.episodeView === 'page' && env.renderPage ? [] : null;
  const replay: Replay = {
    run,
    task: env.describeTask(0),
    milestoneNames: env.describeMilestones(0),
    observations: [],
    frames,
    pages,
    slots: [],
    actions: [],
    recorded: [],
    detected: [],
    success: false,
  };
  const action = new Int32Array(1);
  const snap = () => {
    replay.observations.push(env.describeObservation(0));
    frames?.push(env.renderFrame!(0));
    pages?.push(env.renderPage!(0));
  };
  snap();
  for (let t = from; t < to; t++) {
    if (env.done[0]) throw new Error(`replay of run ${run} ended at step ${t - from}, before its ${to - from} recorded steps`);
    action[0] = snapshot.actions[t];
    replay.actions.push(env.describeAction(0, action[0]));
    replay.slots.push(action[0]);
    env.step(action);
    replay.detected.push(env.milestone[0]);
    snap();
  }
  // Training records 0/1 flags (Φ fired, after dropout); the replay knows which milestone each one was.
  replay.recorded = replay.detected.map((k, n) => (snapshot.milestones[from + n] ? k : 0));
  replay.success = env.success[0] === 1;
  return replay;
}

/** The run the views show when the visitor has not picked one: the first partial success, else run 0. */
export function defaultRun(snapshot: BatchSnapshot): number {
  const runs = snapshot.runOffsets.length - 1;
  for (let i = 0; i < runs; i++) if (!snapshot.success[i] && snapshot.milestonesReached[i] > 0) return i;
  return 0;
}

export type Outcome = 'full' | 'partial' | 'failure';

export function runOutcome(snapshot: BatchSnapshot, run: number): Outcome {
  if (snapshot.success[run]) return 'full';
  return snapshot.milestonesReached[run] > 0 ? 'partial' : 'failure';
}
