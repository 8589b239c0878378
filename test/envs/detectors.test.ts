/**
 * The loose and fine detectors of every environment (envs/<env>/milestones.ts, docs/maths.md §6),
 * played in lockstep with the task detector on the same actions:
 *  - the task itself never changes: progress, success, milestonesReached and the state are the task
 *    detector's under every detector;
 *  - calibration of the fine detector: on oracle episodes it adds intermediate transitions between the
 *    task's milestones, at most one per stage, so at the long horizon it fires more often than the task
 *    detector and at most twice as often;
 *  - the loose detector can be gamed: a random policy makes it fire on steps that complete nothing.
 */
import { describe, expect, it } from 'vitest';
import { createEnv, ENV_NAMES, type EnvName } from '../../envs/index.ts';
import { DETECTOR_ONLY, type Detector, type Horizon, type VecEnv } from '../../envs/types.ts';
import { Rng } from '../../src/prng.ts';

const B = 32;
const DETECTORS: Detector[] = ['task', 'loose', 'fine'];

interface Counts {
  /** Fires per detector. */
  fires: Record<Detector, number>;
  /** Loose fires on steps that completed no task milestone. */
  looseWithoutProgress: number;
  successes: number;
}

/** Plays B episodes under each detector on the same actions (the oracle's, or random admissible ones). */
function play(env: EnvName, horizon: Horizon, policy: 'oracle' | 'random'): Counts {
  const envs = DETECTORS.map((detector) => createEnv(env, { horizon, batchSize: B, detector }));
  const seeds = Uint32Array.from({ length: B }, (_, i) => 1000 + i);
  for (const e of envs) e.reset(seeds, new Rng(1));
  const [task, loose] = envs;
  const counts: Counts = { fires: { task: 0, loose: 0, fine: 0 }, looseWithoutProgress: 0, successes: 0 };
  const actions = new Int32Array(B);
  const rng = new Rng(4);
  for (let t = 0; t < task.maxSteps && !task.done.every((d) => d === 1); t++) {
    if (policy === 'oracle') task.oracleActions(actions);
    else randomActions(task, actions, rng);
    envs.forEach((e, i) => {
      e.step(actions);
      for (let b = 0; b < B; b++) if (e.milestone[b]) counts.fires[DETECTORS[i]]++;
    });
    for (let b = 0; b < B; b++) {
      for (const e of envs) {
        expect(e.milestonesReached[b], `${e.name} episode ${b}: milestones reached under every detector`).toBe(task.milestonesReached[b]);
        expect(e.success[b]).toBe(task.success[b]);
        expect(e.done[b]).toBe(task.done[b]);
        expect(e.stateKey[b]).toBe(task.stateKey[b]);
      }
      if (loose.milestone[b] === DETECTOR_ONLY) counts.looseWithoutProgress++;
    }
  }
  counts.successes = task.success.reduce((s, x) => s + x, 0);
  return counts;
}

function randomActions(env: VecEnv, out: Int32Array, rng: Rng): void {
  const A = env.maxActions;
  for (let b = 0; b < env.batchSize; b++) {
    const admissible: number[] = [];
    for (let a = 0; a < A; a++) if (env.actionMask[b * A + a]) admissible.push(a);
    out[b] = env.done[b] ? 0 : admissible[rng.nextInt(admissible.length)];
  }
}

describe.each(ENV_NAMES)('%s detectors', (env) => {
  it('fine: calibrated on oracle episodes (long horizon), more fires than the task’s milestones, at most twice as many', () => {
    const c = play(env, 'long', 'oracle');
    expect(c.successes).toBe(B);
    const ratio = c.fires.fine / c.fires.task;
    // Calibration on these 32 tasks (printed for docs/maths.md §6): GridHouse 1.67, TextHouse 1.36, shop 1.38.
    console.log(`${env} long, ${B} oracle episodes: ${c.fires.task} task milestones, ${c.fires.fine} fine (${ratio.toFixed(2)}×)`);
    expect(ratio).toBeGreaterThan(1.2);
    expect(ratio).toBeLessThanOrEqual(2);
  });

  it('loose: a random policy makes it fire without progress, more often than the task detector', () => {
    const c = play(env, 'long', 'random');
    expect(c.looseWithoutProgress).toBeGreaterThan(0);
    expect(c.fires.loose).toBeGreaterThan(c.fires.task);
  });

  it('refuses an unknown detector, naming the field', () => {
    expect(() => createEnv(env, { horizon: 'tiny', batchSize: 1, detector: 'psychic' as Detector })).toThrow(/detector must be one of task, loose, fine/);
  });
});
