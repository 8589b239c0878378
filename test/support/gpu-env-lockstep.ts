/**
 * One lockstep run of a WGSL environment kernel against the TypeScript environment, shared by the Node
 * tests (test/gpu/*-step.test.ts, on Dawn) and the Chromium page (test/browser/gpu-env-parity.ts): on
 * the same actions, after the reset and after every step, the GPU's episode records, mask, observation
 * and candidate features are compared with the environment's. Pure WebGPU and environment code (no
 * vitest, no tfjs), so it runs the same in both places. Returns the first mismatch, or null, and what
 * the run covered (milestones reported and dropped, successes) so a caller can tell it tested something.
 * A graded environment's outcome (the shop's reward) is compared bit for bit. `sabotage` feeds the GPU a
 * perturbed task layout or a different action, so a test can show that the harness catches either.
 */
import { MAX_DOORS, MAX_FURNITURE, MAX_OBJECTS } from '../../envs/gridhouse/catalog.ts';
import type { GridHouse } from '../../envs/gridhouse/gridhouse.ts';
import { NUM_OPTION_DIMS } from '../../envs/shop/catalog.ts';
import type { Shop } from '../../envs/shop/shop.ts';
import { LIST_SLOTS } from '../../envs/shop/state.ts';
import type { TextHouse } from '../../envs/texthouse/texthouse.ts';
import { createEnv, type Horizon, type VecEnv } from '../../envs/index.ts';
import { EPISODE_OFFSET } from '../../src/gpu/gridhouse-step.ts';
import { gpuEnvKernel } from '../../src/gpu/gpu-envs.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { perEpisodeWorkgroups } from '../../src/gpu/sample-actions.ts';
import type { ShaderSources } from '../../src/gpu/shader-source.ts';
import { SHOP_EPISODE_OFFSET, shopTaskWord } from '../../src/gpu/shop-step.ts';
import { TEXT_EPISODE_OFFSET } from '../../src/gpu/texthouse-step.ts';
import { Rng } from '../../src/prng.ts';
import { closeMismatch, exactMismatch, mixedActions } from './env-parity.ts';
import { emptyBuffer, readBack, uploadBuffer } from './gpu-buffers.ts';

export interface LockstepCase {
  env: 'gridhouse' | 'texthouse' | 'shop';
  horizon: Horizon;
  milestoneDropout: number;
  /** Task instances and runs per instance (B = groups × groupSize). */
  groups: number;
  groupSize: number;
  seed: number;
  /**
   * A deliberate fault, to show the harness detects one: `layout` uploads episode 0's wanted product
   * (shop only) priced over the limit; `actions` gives the GPU another query than the CPU's for episode 0
   * at the first step (a horizon with two or more queries).
   */
  sabotage?: 'layout' | 'actions';
}

export interface LockstepResult {
  mismatch: string | null;
  steps: number;
  milestones: number;
  dropped: number;
  successes: number;
  /** Episodes that ended with a graded outcome strictly between 0 and 1 (a purchase that missed a constraint). */
  partialOutcomes: number;
}

type Triple = [string, number, number];

/** The environment's own state next to the GPU record's, field by field, for episode b. */
const STATE_FIELDS: Record<LockstepCase['env'], (env: VecEnv, words: Uint32Array, e: number, b: number) => Triple[]> = {
  gridhouse(env, w, e, b) {
    const st = (env as GridHouse).state;
    const E = EPISODE_OFFSET;
    const out: Triple[] = [
      ['agent', w[e + E.AGENT], st.agent[b]],
      ['carried', w[e + E.CARRIED], st.carried[b] & 0xff],
      ['progress', w[e + E.PROGRESS], st.progress[b]],
    ];
    for (let o = 0; o < MAX_OBJECTS; o++) {
      out.push([`objectLoc[${o}]`, w[e + E.OBJECT_LOC + o], st.objectLoc[b * MAX_OBJECTS + o]]);
      out.push([`objectFlags[${o}]`, w[e + E.OBJECT_FLAGS + o], st.objectFlags[b * MAX_OBJECTS + o]]);
    }
    for (let f = 0; f < MAX_FURNITURE; f++) out.push([`furnitureLoad[${f}]`, w[e + E.FURNITURE_LOAD + f], st.furnitureLoad[b * MAX_FURNITURE + f]]);
    for (let d = 0; d < MAX_DOORS; d++) out.push([`doorState[${d}]`, w[e + E.DOOR_STATE + d], st.doorState[b * MAX_DOORS + d]]);
    return out;
  },
  texthouse(env, w, e, b) {
    const s = (env as TextHouse).state;
    const E = TEXT_EPISODE_OFFSET;
    const out: Triple[] = [
      ['loc', w[e + E.LOC], s.loc[b]],
      ['held', w[e + E.HELD], s.held[b]],
      ['progress', w[e + E.PROGRESS], s.progress[b]],
      ['nExplored', w[e + E.N_EXPLORED], s.nExplored[b]],
      ['nClosed', w[e + E.N_CLOSED], s.nClosed[b]],
      ['lastAction', w[e + E.LAST_ACTION], s.lastAction[b] >>> 0],
    ];
    for (let r = 0; r < s.R; r++) {
      out.push([`recClosed[${r}]`, w[e + E.REC_CLOSED + r], s.recClosed[b * s.R + r]]);
      out.push([`explored[${r}]`, w[e + E.EXPLORED + r], s.explored[b * s.R + r]]);
    }
    for (let o = 0; o < s.O; o++) {
      out.push([`objLoc[${o}]`, w[e + E.OBJ_LOC + o], s.objLoc[b * s.O + o]]);
      out.push([`objFlags[${o}]`, w[e + E.OBJ_FLAGS + o], s.objFlags[b * s.O + o]]);
    }
    return out;
  },
  shop(env, w, e, b) {
    const s = (env as Shop).state;
    const E = SHOP_EPISODE_OFFSET;
    const f = new Float32Array(w.buffer, w.byteOffset, w.length);
    const out: Triple[] = [
      ['progress', w[e + E.PROGRESS], s.progress[b]],
      ['line', w[e + E.LINE], s.line[b]],
      ['page', w[e + E.PAGE], s.page[b]],
      ['query', w[e + E.QUERY], s.query[b]],
      ['resultsPage', w[e + E.RESULTS_PAGE], s.resultsPage[b]],
      ['item', w[e + E.ITEM], s.item[b]],
      ['nOptionSlots', w[e + E.N_OPTION_SLOTS], s.nOptionSlots[b]],
      ['reward', f[e + E.REWARD], s.reward[b]],
    ];
    for (let d = 0; d < NUM_OPTION_DIMS; d++) out.push([`selected[${d}]`, w[e + E.SELECTED + d] | 0, s.selected[b * NUM_OPTION_DIMS + d]]);
    for (let i = 0; i < LIST_SLOTS; i++) out.push([`optionSlot[${i}]`, w[e + E.OPTION_SLOT + i] | 0, s.optionSlot[b * LIST_SLOTS + i]]);
    for (let l = 0; l < s.L; l++) out.push([`lineReward[${l}]`, f[e + E.LINE_REWARD + l], s.lineReward[b * s.L + l]]);
    return out;
  },
};

/** Episode 0's wanted product (pool index 0 of its first line, in task block 0, which its group shares) priced one dollar over the limit. */
function overpriceWantedProduct(env: VecEnv, table: Uint32Array): void {
  if (env.name !== 'shop') throw new Error(`sabotage 'layout' is written for the shop; got ${env.name}`);
  table[shopTaskWord(0, 0, 'PROD_PRICE', 0)] = table[shopTaskWord(0, 0, 'LIMIT')] + 1;
}

export async function runLockstep(device: GPUDevice, shaders: ShaderSources, c: LockstepCase): Promise<LockstepResult> {
  const B = c.groups * c.groupSize;
  const env = createEnv(c.env, { horizon: c.horizon, batchSize: B, milestoneDropout: c.milestoneDropout });
  const kernel = gpuEnvKernel(env)!;
  const runner = await KernelRunner.create(device, kernel.spec, shaders[kernel.spec.name], 64);
  const rng = new Rng(c.seed);
  const seeds = Array.from({ length: B }, (_, b) => c.seed * 7 + 7919 * Math.floor(b / c.groupSize));
  env.reset(seeds, rng.fork('dropout'));
  const { episodes: records, table } = kernel.upload(env);
  if (c.sabotage === 'layout') overpriceWantedProduct(env, table.data);
  const actions = new Int32Array(B);
  const buffers: Record<string, GPUBuffer> = {
    [table.name]: uploadBuffer(device, table.data),
    episodes: uploadBuffer(device, records),
    actions: uploadBuffer(device, actions),
    mask: emptyBuffer(device, 4 * B * env.maxActions),
    obs: emptyBuffer(device, 4 * B * env.obsDim),
    actionFeatures: emptyBuffer(device, 4 * B * env.maxActions * env.actionDim),
  };
  const result: LockstepResult = { mismatch: null, steps: 0, milestones: 0, dropped: 0, successes: 0, partialOutcomes: 0 };
  const oracle = new Int32Array(B);
  const choice = rng.fork('actions');
  const W = kernel.recordWords;
  const F = kernel.fields;
  const gpuActions = new Int32Array(B);
  try {
    for (let step = 0; ; step++) {
      await runner.dispatch(buffers, kernel.params(env, step === 0 ? 0 : 1), perEpisodeWorkgroups(B, 64));
      const words = new Uint32Array(await readBack(device, buffers.episodes));
      let mismatch: string | null = null;
      for (let b = 0; b < B && !mismatch; b++) {
        const e = b * W;
        const fields: Triple[] = [
          ['steps', words[e + F.steps], env.steps[b]],
          ['done', words[e + F.done], env.done[b]],
          ['success', words[e + F.success], env.success[b]],
          ['milestone', words[e + F.milestone], env.milestone[b]],
          ['milestonesReached', words[e + F.milestonesReached], env.milestonesReached[b]],
          ['stateKey', words[e + F.stateKey], env.stateKey[b]],
          ...STATE_FIELDS[c.env](env, words, e, b),
        ];
        if (F.outcome !== undefined && env.outcome) fields.push(['outcome', new Float32Array(words.buffer)[e + F.outcome], env.outcome[b]]);
        const bad = fields.find(([, gpu, cpu]) => gpu !== cpu);
        if (bad) mismatch = `episode ${b}: ${bad[0]} GPU ${bad[1]}, CPU ${bad[2]}`;
      }
      mismatch ??=
        exactMismatch('mask', new Uint32Array(await readBack(device, buffers.mask)), env.actionMask) ??
        closeMismatch('obs', new Float32Array(await readBack(device, buffers.obs)), env.obs) ??
        closeMismatch('actionFeatures', new Float32Array(await readBack(device, buffers.actionFeatures)), env.actionFeatures);
      if (mismatch) {
        result.mismatch = `${c.env} ${c.horizon}, dropout ${c.milestoneDropout}, step ${step}: ${mismatch}`;
        return result;
      }
      if (env.done.every((d) => d === 1)) break;
      mixedActions(env, choice, oracle, actions);
      gpuActions.set(actions);
      if (c.sabotage === 'actions' && step === 0) {
        if (env.name !== 'shop') throw new Error(`sabotage 'actions' is written for the shop; got ${env.name}`);
        gpuActions[0] = (actions[0] + 1) % (env as Shop).state.Q;
      }
      device.queue.writeBuffer(buffers.actions, 0, gpuActions);
      env.step(actions);
      result.steps++;
      for (let b = 0; b < B; b++) if (env.milestone[b] > 0) result.milestones++;
    }
    for (let b = 0; b < B; b++) {
      result.successes += env.success[b];
      if (env.outcome && env.outcome[b] > 0 && env.outcome[b] < 1) result.partialOutcomes++;
      result.dropped += progressOf(env, b) - env.milestonesReached[b];
    }
    return result;
  } finally {
    for (const buffer of Object.values(buffers)) buffer.destroy();
    runner.destroy();
  }
}

/** True milestones completed by episode b (before dropout). */
function progressOf(env: VecEnv, b: number): number {
  if (env.name === 'gridhouse') return (env as GridHouse).state.progress[b];
  return env.name === 'shop' ? (env as Shop).state.progress[b] : (env as TextHouse).state.progress[b];
}
