/**
 * TextHouse on the GPU (shaders/texthouse-step.wgsl) against the TypeScript environment, on Dawn: on
 * the same command sequences (a mix of the oracle's and random admissible ones, so that milestones,
 * dropout and successes happen), every step's state, mask, milestone, outcome and state key are equal
 * and every feature (the stale ones of masked slots included) is equal within float32 rounding, at
 * every horizon, over many seeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { createTextHouse, type TextHouse } from '../../envs/texthouse/texthouse.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { perEpisodeWorkgroups } from '../../src/gpu/sample-actions.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import {
  packTextHouseEpisodes,
  packZobristTables,
  TEXT_EPISODE_OFFSET as E,
  TEXT_EPISODE_WORDS,
  TEXTHOUSE_STEP,
  ZOBRIST_OFFSET,
} from '../../src/gpu/texthouse-step.ts';
import { Rng } from '../../src/prng.ts';
import { closeMismatch, exactMismatch, mixedActions, wgslConsts } from '../support/env-parity.ts';
import { emptyBuffer, readBack, uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('texthouse-step record layouts', () => {
  it('the WGSL constants are the TypeScript tables', () => {
    const consts = wgslConsts(VITE_SHADERS['texthouse-step']);
    expect(consts.get('EPISODE_WORDS')).toBe(TEXT_EPISODE_WORDS);
    for (const [name, offset] of Object.entries(E)) expect(consts.get(`E_${name}`), `E_${name}`).toBe(offset);
    for (const [name, offset] of Object.entries(ZOBRIST_OFFSET)) expect(consts.get(`Z_${name}`), `Z_${name}`).toBe(offset);
  });
});

/** The first difference between the GPU's episode records and the environment's state, or null. */
function stateMismatch(env: TextHouse, words: Uint32Array): string | null {
  const s = env.state;
  for (let b = 0; b < env.batchSize; b++) {
    const e = b * TEXT_EPISODE_WORDS;
    const expected: [string, number, number][] = [
      ['loc', words[e + E.LOC], s.loc[b]],
      ['held', words[e + E.HELD], s.held[b]],
      ['progress', words[e + E.PROGRESS], s.progress[b]],
      ['nExplored', words[e + E.N_EXPLORED], s.nExplored[b]],
      ['nClosed', words[e + E.N_CLOSED], s.nClosed[b]],
      ['lastAction', words[e + E.LAST_ACTION], s.lastAction[b] >>> 0],
      ['steps', words[e + E.STEPS], env.steps[b]],
      ['done', words[e + E.DONE], env.done[b]],
      ['success', words[e + E.SUCCESS], env.success[b]],
      ['milestone', words[e + E.MILESTONE], env.milestone[b]],
      ['milestonesReached', words[e + E.MILESTONES_REACHED], env.milestonesReached[b]],
      ['stateKey', words[e + E.STATE_KEY], env.stateKey[b]],
    ];
    for (let r = 0; r < s.R; r++) {
      expected.push([`recClosed[${r}]`, words[e + E.REC_CLOSED + r], s.recClosed[b * s.R + r]]);
      expected.push([`explored[${r}]`, words[e + E.EXPLORED + r], s.explored[b * s.R + r]]);
    }
    for (let o = 0; o < s.O; o++) {
      expected.push([`objLoc[${o}]`, words[e + E.OBJ_LOC + o], s.objLoc[b * s.O + o]]);
      expected.push([`objFlags[${o}]`, words[e + E.OBJ_FLAGS + o], s.objFlags[b * s.O + o]]);
    }
    for (const [name, gpu, cpu] of expected) if (gpu !== cpu) return `episode ${b}: ${name} GPU ${gpu}, CPU ${cpu}`;
  }
  return null;
}

describe('texthouse-step kernel on WebGPU (Dawn) against the TypeScript TextHouse', () => {
  let device: GPUDevice;
  let runner: KernelRunner<string, string>;
  let zobrist: GPUBuffer;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
    runner = await KernelRunner.create(device, TEXTHOUSE_STEP, VITE_SHADERS['texthouse-step'], 64);
    zobrist = uploadBuffer(device, packZobristTables());
  });
  afterAll(() => {
    runner?.destroy();
    zobrist?.destroy();
  });

  it.each(HORIZONS.flatMap((h) => [[h, 0], [h, 0.4]] as [Horizon, number][]))('%s, dropout %s: equal at every step', async (horizon, dropout) => {
    const groups = 12;
    const G = 3;
    const B = groups * G;
    const rng = new Rng(horizon.length * 1000 + dropout * 10 + 5);
    const env = createTextHouse({ horizon, batchSize: B, milestoneDropout: dropout }) as TextHouse;
    const seeds = Array.from({ length: B }, (_, b) => 2000 + 7919 * Math.floor(b / G) + horizon.length);
    env.reset(seeds, rng.fork('dropout'));
    const s = env.state;
    const episodes = uploadBuffer(device, packTextHouseEpisodes(s, env.droppedMilestones));
    const actions = new Int32Array(B);
    const buffers = {
      zobrist,
      episodes,
      actions: uploadBuffer(device, actions),
      mask: emptyBuffer(device, 4 * B * env.maxActions),
      obs: emptyBuffer(device, 4 * B * env.obsDim),
      actionFeatures: emptyBuffer(device, 4 * B * env.maxActions * env.actionDim),
    };
    const params = { numEpisodes: B, maxSteps: env.maxSteps, numRec: s.R, numObj: s.O, numActions: s.A, idleCommands: s.idleCommands, applyActions: 0 };
    const oracle = new Int32Array(B);
    const choice = rng.fork('actions');
    const seen = { milestones: 0, dropped: 0, successes: 0 };
    try {
      for (let step = 0; ; step++) {
        await runner.dispatch(buffers, params, perEpisodeWorkgroups(B, 64));
        const mismatch =
          stateMismatch(env, new Uint32Array(await readBack(device, episodes))) ??
          exactMismatch('mask', new Uint32Array(await readBack(device, buffers.mask)), env.actionMask) ??
          closeMismatch('obs', new Float32Array(await readBack(device, buffers.obs)), env.obs) ??
          closeMismatch('actionFeatures', new Float32Array(await readBack(device, buffers.actionFeatures)), env.actionFeatures);
        if (mismatch) expect.fail(`${horizon}, step ${step}: ${mismatch}`);
        if (env.done.every((d) => d === 1)) break;
        mixedActions(env, choice, oracle, actions);
        device.queue.writeBuffer(buffers.actions, 0, actions);
        params.applyActions = 1;
        env.step(actions);
        for (let b = 0; b < B; b++) if (env.milestone[b] > 0) seen.milestones++;
      }
      for (let b = 0; b < B; b++) {
        seen.successes += env.success[b];
        seen.dropped += s.progress[b] - env.milestonesReached[b];
      }
    } finally {
      for (const [name, buffer] of Object.entries(buffers)) if (name !== 'zobrist') buffer.destroy();
    }
    expect(seen.milestones).toBeGreaterThan(0);
    expect(seen.successes).toBeGreaterThan(0);
    if (dropout > 0) expect(seen.dropped).toBeGreaterThan(0);
    else expect(seen.dropped).toBe(0);
  });
});
