/**
 * The shop on the GPU: the runner table of shaders/shop-step.wgsl and the packing of what it reads and
 * writes. One invocation per episode applies the sampled click (envs/shop/pages.ts), runs Φ (BEACON's
 * four WebShop phases per order line, milestones.ts) and the episode bookkeeping (envs/episode-book.ts,
 * with milestone dropout, docs/maths.md §2 and §6), grades a purchase with WebShop's reward (reward.ts,
 * docs/maths.md §10), and rewrites the mask, the features (features.ts) and the state key (state.ts
 * `computeKey`).
 *
 * Task layouts (each order line's instruction, candidate queries, product pool and results lists) come
 * from the seeded TypeScript generator once per rollout, packed here into the read-only `tasks` table,
 * one block per episode; the episode records hold only what changes, so the per-step copies a rollout
 * keeps stay small. The offsets below are also `const`s in the WGSL: a test compares the tables.
 *
 * Rewards must equal the CPU's bit for bit, but WGSL's f32 division is only accurate to 2.5 ulp. Every
 * reward is a fraction h / (2·den) of small integers (the type reward is 0, ½ or 1), so the table starts
 * with those fractions rounded to float32 here, and the kernel looks them up instead of dividing.
 */
import { NUM_ATTRS, NUM_OPTION_DIMS } from '../../envs/shop/catalog.ts';
import { MAX_LINES } from '../../envs/shop/config.ts';
import { LIST_SLOTS, type ShopState } from '../../envs/shop/state.ts';
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const SHOP_STEP = defineKernel({
  name: 'shop-step',
  params: uniformFields([
    ['numEpisodes', 'u32'],
    ['maxSteps', 'u32'],
    /** Q, R, P of the horizon (ShopState): candidate queries, results per query, products per line's pool. */
    ['numQueries', 'u32'],
    ['numResults', 'u32'],
    ['numProducts', 'u32'],
    /** 1: a results listing shows each product's offered option values (config.ts `listingOptions`). */
    ['listingOptions', 'u32'],
    /** 1: apply `actions` to live episodes first; 0: write mask, features and key of a fresh reset. */
    ['applyActions', 'u32'],
  ]),
  storage: [
    ['tasks', 'read'],
    ['actions', 'read'],
    ['episodes', 'read_write'],
    ['mask', 'read_write'],
    ['obs', 'read_write'],
    ['actionFeatures', 'read_write'],
  ],
});

/** Capacities of a line's task block; they are also the radices of state.ts `computeKey` (query × 8, product × 32). */
const QUERY_CAP = 8;
const RESULT_CAP = 32;
const PRODUCT_CAP = 32;
/** Results packed into a task block's word (bytes: pool indices are below PRODUCT_CAP; `RESULTS_PER_WORD` in the WGSL). */
export const SHOP_RESULTS_PER_WORD = 4;
const RESULTS_PER_WORD = SHOP_RESULTS_PER_WORD;

type Fields<N extends string> = readonly (readonly [N, number])[];

function offsets<N extends string>(fields: Fields<N>): { offset: Record<N, number>; size: number } {
  const offset = {} as Record<N, number>;
  let at = 0;
  for (const [name, count] of fields) {
    offset[name] = at;
    at += count;
  }
  return { offset, size: at };
}

const LINE_FIELDS = [
  ['GOAL_TYPE', 1],
  ['GOAL_ATTRS', 1],
  /** Per dimension: the wanted option value, or −1 (as i32 bits) when not named. */
  ['GOAL_OPT', NUM_OPTION_DIMS],
  ['LIMIT', 1],
  ['QUERY_TYPE', QUERY_CAP],
  ['QUERY_ATTRS', QUERY_CAP],
  ['PROD_TYPE', PRODUCT_CAP],
  ['PROD_ATTRS', PRODUCT_CAP],
  ['PROD_PRICE', PRODUCT_CAP],
  ['PROD_OPTS', PRODUCT_CAP],
  /**
   * Per (query, rank): pool index of the product listed, a byte each (below PRODUCT_CAP), four to a
   * word, lowest byte first: the results are most of a block, which the host writes every rollout.
   */
  ['RESULTS', (QUERY_CAP * RESULT_CAP) / RESULTS_PER_WORD],
] as const;

export type ShopLineField = (typeof LINE_FIELDS)[number][0];
const lineTable = offsets(LINE_FIELDS);
/** Word offset of each field in a line's task block (`T_<FIELD>` in the WGSL). */
export const SHOP_LINE_OFFSET: Readonly<Record<ShopLineField, number>> = lineTable.offset;
/** Words per line block (`LINE_WORDS`); an episode's block holds MAX_LINES of them (`TASK_WORDS`). */
export const SHOP_LINE_WORDS = lineTable.size;
export const SHOP_TASK_WORDS = MAX_LINES * SHOP_LINE_WORDS;

/**
 * The reward fractions: entry h · REWARD_DENS + den is h / (2·den) as a float32, for h (twice the type
 * reward times the constraints met) up to 2 · (attributes + options + 1) and den up to that count.
 */
export const REWARD_DENS = NUM_ATTRS + NUM_OPTION_DIMS + 2;
const REWARD_HALVES = 2 * (NUM_ATTRS + NUM_OPTION_DIMS + 1) + 1;
/** Words before the first episode's task block (`TASKS_START`). */
export const SHOP_TASKS_START = REWARD_HALVES * REWARD_DENS;

const EPISODE_FIELDS = [
  ['NLINES', 1],
  ['NMS', 1],
  /** Bit k: milestone k + 1 is completed but not reported (milestone dropout). */
  ['DROPPED', 1],
  ['PROGRESS', 1],
  ['LINE', 1],
  ['PAGE', 1],
  ['QUERY', 1],
  ['RESULTS_PAGE', 1],
  ['ITEM', 1],
  ['N_OPTION_SLOTS', 1],
  /** Per dimension: the selected option value, or −1 (as i32 bits). */
  ['SELECTED', NUM_OPTION_DIMS],
  /** Per item-page slot: the option value listed (i32 bits; stale past N_OPTION_SLOTS, as on the CPU). */
  ['OPTION_SLOT', LIST_SLOTS],
  /** Per line: WebShop's reward of its purchase (f32 bits). */
  ['LINE_REWARD', MAX_LINES],
  /** The episode's graded reward, the trainer's outcome (f32 bits). */
  ['REWARD', 1],
  ['STEPS', 1],
  ['DONE', 1],
  ['SUCCESS', 1],
  ['MILESTONE', 1],
  ['MILESTONES_REACHED', 1],
  ['STATE_KEY', 1],
  /** The episode's block in the `tasks` table (packShopTasks: the episodes of a group share one). */
  ['TASK', 1],
] as const;

export type ShopEpisodeField = (typeof EPISODE_FIELDS)[number][0];
const episodeTable = offsets(EPISODE_FIELDS);
/** Word offset of each field in an episode record (`E_<FIELD>` in the WGSL). */
export const SHOP_EPISODE_OFFSET: Readonly<Record<ShopEpisodeField, number>> = episodeTable.offset;
/** Words per episode record (`EPISODE_WORDS` in the WGSL). */
export const SHOP_EPISODE_WORDS = episodeTable.size;

/** Why `s` does not fit the kernel's capacities, or null. */
export function shopStepRefusal(s: ShopState): string | null {
  if (s.Q > QUERY_CAP || s.R > RESULT_CAP || s.P > PRODUCT_CAP || s.L > 2)
    return `shop-step: a task holds at most ${QUERY_CAP} queries, ${RESULT_CAP} results, ${PRODUCT_CAP} products and 2 lines; got ${s.Q}, ${s.R}, ${s.P}, ${s.L}`;
  return null;
}

function checkFits(s: ShopState): void {
  const refusal = shopStepRefusal(s);
  if (refusal) throw new RangeError(refusal);
}

/** The `tasks` table: the reward fractions, then every episode's task block (its order lines). */
export function packShopTasks(s: ShopState): { data: Uint32Array; taskOf: Uint32Array } {
  const all = packEpisodeTasks(s);
  // An episode whose block equals the one before it shares it: a group's episodes play one task.
  const taskOf = new Uint32Array(s.B);
  let distinct = 0;
  for (let b = 0; b < s.B; b++) {
    const block = all.subarray(SHOP_TASKS_START + b * SHOP_TASK_WORDS, SHOP_TASKS_START + (b + 1) * SHOP_TASK_WORDS);
    const last = all.subarray(SHOP_TASKS_START + (distinct - 1) * SHOP_TASK_WORDS, SHOP_TASKS_START + distinct * SHOP_TASK_WORDS);
    if (distinct === 0 || !block.every((word, i) => word === last[i]))
      all.copyWithin(SHOP_TASKS_START + distinct++ * SHOP_TASK_WORDS, block.byteOffset / 4, block.byteOffset / 4 + SHOP_TASK_WORDS);
    taskOf[b] = distinct - 1;
  }
  return { data: all.slice(0, SHOP_TASKS_START + distinct * SHOP_TASK_WORDS), taskOf };
}

/** The reward fractions, then every episode's task block in episode order. */
function packEpisodeTasks(s: ShopState): Uint32Array {
  checkFits(s);
  const out = new Uint32Array(SHOP_TASKS_START + s.B * SHOP_TASK_WORDS);
  const fractions = new Float32Array(out.buffer, 0, SHOP_TASKS_START);
  for (let h = 0; h < REWARD_HALVES; h++) for (let den = 1; den < REWARD_DENS; den++) fractions[h * REWARD_DENS + den] = h / 2 / den;
  const T = SHOP_LINE_OFFSET;
  const D = NUM_OPTION_DIMS;
  for (let b = 0; b < s.B; b++) {
    for (let l = 0; l < s.L; l++) {
      const bl = b * s.L + l;
      const t = SHOP_TASKS_START + b * SHOP_TASK_WORDS + l * SHOP_LINE_WORDS;
      out[t + T.GOAL_TYPE] = s.goalType[bl];
      out[t + T.GOAL_ATTRS] = s.goalAttrs[bl];
      for (let d = 0; d < D; d++) out[t + T.GOAL_OPT + d] = s.goalOpt[bl * D + d] >>> 0;
      out[t + T.LIMIT] = s.limit[bl];
      for (let q = 0; q < s.Q; q++) {
        out[t + T.QUERY_TYPE + q] = s.queryType[bl * s.Q + q];
        out[t + T.QUERY_ATTRS + q] = s.queryAttrs[bl * s.Q + q];
        for (let r = 0; r < s.R; r++) {
          const i = q * RESULT_CAP + r;
          out[t + T.RESULTS + Math.floor(i / RESULTS_PER_WORD)] |= s.results[(bl * s.Q + q) * s.R + r] << (8 * (i % RESULTS_PER_WORD));
        }
      }
      for (let p = 0; p < s.P; p++) {
        out[t + T.PROD_TYPE + p] = s.prodType[bl * s.P + p];
        out[t + T.PROD_ATTRS + p] = s.prodAttrs[bl * s.P + p];
        out[t + T.PROD_PRICE + p] = s.prodPrice[bl * s.P + p];
        out[t + T.PROD_OPTS + p] = s.prodOpts[bl * s.P + p];
      }
    }
  }
  return out;
}

/** Word index in the `tasks` table of field `field` (+ `index`) of task block k's line l (packShopTasks `taskOf` gives an episode's block). */
export function shopTaskWord(k: number, l: number, field: ShopLineField, index = 0): number {
  return SHOP_TASKS_START + k * SHOP_TASK_WORDS + l * SHOP_LINE_WORDS + SHOP_LINE_OFFSET[field] + index;
}

/** The episode records of a freshly reset shop (start state) and its dropout bits (bit k hides milestone k + 1). */
export function packShopEpisodes(s: ShopState, dropped: Uint8Array, taskOf: Uint32Array): Uint32Array {
  checkFits(s);
  const W = SHOP_EPISODE_WORDS;
  const F = SHOP_EPISODE_OFFSET;
  const D = NUM_OPTION_DIMS;
  const out = new Uint32Array(s.B * W);
  const floats = new Float32Array(out.buffer);
  for (let b = 0; b < s.B; b++) {
    const e = b * W;
    out[e + F.NLINES] = s.nLines[b];
    out[e + F.NMS] = s.nMs[b];
    out[e + F.DROPPED] = dropped[b];
    out[e + F.PROGRESS] = s.progress[b];
    out[e + F.LINE] = s.line[b];
    out[e + F.PAGE] = s.page[b];
    out[e + F.QUERY] = s.query[b];
    out[e + F.RESULTS_PAGE] = s.resultsPage[b];
    out[e + F.ITEM] = s.item[b];
    out[e + F.N_OPTION_SLOTS] = s.nOptionSlots[b];
    for (let d = 0; d < D; d++) out[e + F.SELECTED + d] = s.selected[b * D + d] >>> 0;
    // Past the page's option slots the state keeps an earlier page's, which nothing reads: packed as 0,
    // so that episodes reset alike pack alike (src/trainer/rollout-records.ts uploads each such record once).
    for (let i = 0; i < LIST_SLOTS; i++) out[e + F.OPTION_SLOT + i] = i < s.nOptionSlots[b] ? s.optionSlot[b * LIST_SLOTS + i] >>> 0 : 0;
    for (let l = 0; l < s.L; l++) floats[e + F.LINE_REWARD + l] = s.lineReward[b * s.L + l];
    floats[e + F.REWARD] = s.reward[b];
    out[e + F.TASK] = taskOf[b];
  }
  return out;
}
