/**
 * GridHouse on the GPU (shaders/gridhouse-step.wgsl) against the TypeScript environment, on Dawn: on
 * the same action sequences (a mix of random admissible actions and the oracle's, so that milestones,
 * dropout and successes happen), every step's state, mask, milestone, outcome and state key are equal
 * and every feature is equal within float32 rounding, at every horizon, over many seeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { MAX_DOORS, MAX_FURNITURE, MAX_OBJECTS } from '../../envs/gridhouse/catalog.ts';
import { createGridHouse, type GridHouse } from '../../envs/gridhouse/gridhouse.ts';
import {
  EPISODE_OFFSET as E,
  EPISODE_WORDS,
  GRIDHOUSE_STEP,
  LAYOUT_BYTES,
  LAYOUT_OFFSET,
  packGridHouseEpisodes,
  packGridHouseLayouts,
  usedLayoutSlots,
} from '../../src/gpu/gridhouse-step.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { perEpisodeWorkgroups } from '../../src/gpu/sample-actions.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Rng } from '../../src/prng.ts';
import { closeMismatch, exactMismatch, mixedActions, wgslConsts } from '../support/env-parity.ts';
import { emptyBuffer, readBack, uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('gridhouse-step record layouts', () => {
  it('the WGSL constants are the TypeScript tables', () => {
    const consts = wgslConsts(VITE_SHADERS['gridhouse-step']);
    expect(consts.get('LAYOUT_BYTES')).toBe(LAYOUT_BYTES);
    expect(consts.get('EPISODE_WORDS')).toBe(EPISODE_WORDS);
    for (const [name, offset] of Object.entries(LAYOUT_OFFSET)) expect(consts.get(`L_${name}`), `L_${name}`).toBe(offset);
    for (const [name, offset] of Object.entries(E)) expect(consts.get(`E_${name}`), `E_${name}`).toBe(offset);
  });
});

/** The first difference between the GPU's episode records and the environment's state, or null. */
function stateMismatch(env: GridHouse, words: Uint32Array): string | null {
  const st = env.state;
  for (let b = 0; b < env.batchSize; b++) {
    const e = b * EPISODE_WORDS;
    const expected: [string, number, number][] = [
      ['agent', words[e + E.AGENT], st.agent[b]],
      ['carried', words[e + E.CARRIED], st.carried[b] & 0xff],
      ['progress', words[e + E.PROGRESS], st.progress[b]],
      ['steps', words[e + E.STEPS], env.steps[b]],
      ['done', words[e + E.DONE], env.done[b]],
      ['success', words[e + E.SUCCESS], env.success[b]],
      ['milestone', words[e + E.MILESTONE], env.milestone[b]],
      ['milestonesReached', words[e + E.MILESTONES_REACHED], env.milestonesReached[b]],
      ['stateKey', words[e + E.STATE_KEY], env.stateKey[b]],
    ];
    for (let o = 0; o < MAX_OBJECTS; o++) {
      expected.push([`objectLoc[${o}]`, words[e + E.OBJECT_LOC + o], st.objectLoc[b * MAX_OBJECTS + o]]);
      expected.push([`objectFlags[${o}]`, words[e + E.OBJECT_FLAGS + o], st.objectFlags[b * MAX_OBJECTS + o]]);
    }
    for (let f = 0; f < MAX_FURNITURE; f++) expected.push([`furnitureLoad[${f}]`, words[e + E.FURNITURE_LOAD + f], st.furnitureLoad[b * MAX_FURNITURE + f]]);
    for (let d = 0; d < MAX_DOORS; d++) expected.push([`doorState[${d}]`, words[e + E.DOOR_STATE + d], st.doorState[b * MAX_DOORS + d]]);
    for (const [name, gpu, cpu] of expected) if (gpu !== cpu) return `episode ${b}: ${name} GPU ${gpu}, CPU ${cpu}`;
  }
  return null;
}

describe('gridhouse-step kernel on WebGPU (Dawn) against the TypeScript GridHouse', () => {
  let device: GPUDevice;
  let runner: KernelRunner<string, string>;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
    runner = await KernelRunner.create(device, GRIDHOUSE_STEP, VITE_SHADERS['gridhouse-step'], 64);
  });
  afterAll(() => runner?.destroy());

  it.each(HORIZONS.flatMap((h) => [[h, 0], [h, 0.4]] as [Horizon, number][]))('%s, dropout %s: equal at every step', async (horizon, dropout) => {
    const groups = 12;
    const G = 3;
    const B = groups * G;
    const rng = new Rng(horizon.length * 1000 + dropout * 10);
    const env = createGridHouse({ horizon, batchSize: B, milestoneDropout: dropout });
    const seeds = Array.from({ length: B }, (_, b) => 1000 + 7919 * Math.floor(b / G) + horizon.length);
    env.reset(seeds, rng.fork('dropout'));
    const layouts = uploadBuffer(device, packGridHouseLayouts(env.state.layouts, usedLayoutSlots(env.state)));
    const episodes = uploadBuffer(device, packGridHouseEpisodes(env.state, env.droppedMilestones));
    const actions = new Int32Array(B);
    const buffers = {
      layouts,
      episodes,
      actions: uploadBuffer(device, actions),
      mask: emptyBuffer(device, 4 * B * env.maxActions),
      obs: emptyBuffer(device, 4 * B * env.obsDim),
      actionFeatures: emptyBuffer(device, 4 * B * env.maxActions * env.actionDim),
    };
    const params = { numEpisodes: B, maxSteps: env.maxSteps, maxMilestones: env.maxMilestones, applyActions: 0 };
    const oracle = new Int32Array(B);
    const choice = rng.fork('actions');
    const seen = { milestones: 0, dropped: 0, successes: 0, steps: 0 };
    try {
      for (let step = 0; ; step++) {
        await runner.dispatch(buffers, params, perEpisodeWorkgroups(B, 64));
        const words = new Uint32Array(await readBack(device, episodes));
        const mismatch =
          stateMismatch(env, words) ??
          exactMismatch('mask', new Uint32Array(await readBack(device, buffers.mask)), env.actionMask) ??
          closeMismatch('obs', new Float32Array(await readBack(device, buffers.obs)), env.obs) ??
          closeMismatch('actionFeatures', new Float32Array(await readBack(device, buffers.actionFeatures)), env.actionFeatures);
        if (mismatch) expect.fail(`${horizon}, step ${step}: ${mismatch}`);
        if (env.done.every((d) => d === 1)) break;
        mixedActions(env, choice, oracle, actions);
        device.queue.writeBuffer(buffers.actions, 0, actions);
        params.applyActions = 1;
        env.step(actions);
        seen.steps++;
        for (let b = 0; b < B; b++) if (env.milestone[b] > 0) seen.milestones++;
      }
      for (let b = 0; b < B; b++) {
        seen.successes += env.success[b];
        seen.dropped += env.state.progress[b] - env.milestonesReached[b];
      }
    } finally {
      for (const buffer of Object.values(buffers)) buffer.destroy();
    }
    // The comparison covered what it claims to: reported milestones, successes, and dropped ones.
    expect(seen.milestones).toBeGreaterThan(0);
    expect(seen.successes).toBeGreaterThan(0);
    if (dropout > 0) expect(seen.dropped).toBeGreaterThan(0);
    else expect(seen.dropped).toBe(0);
  });
});
