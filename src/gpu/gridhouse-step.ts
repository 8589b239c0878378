/**
 * GridHouse on the GPU: the runner table of shaders/gridhouse-step.wgsl and the packing of what it
 * reads and writes. One invocation per episode applies the sampled action (envs/gridhouse/
 * transitions.ts), runs Φ and the episode bookkeeping (milestones.ts, envs/episode-book.ts, with
 * milestone dropout, docs/maths.md §2 and §6), and rewrites the mask, the features (features.ts) and
 * the state key (state.ts `hash`) in GPU buffers that tfjs can wrap as tensors.
 *
 * Task layouts and the dropout decisions come from the seeded TypeScript environment once per rollout
 * (`reset`), packed here and uploaded: the generator is sequential and runs once, the steps are many.
 *
 * Layout records are byte arrays (every LayoutPool field is a byte, the seed four) packed four to a
 * u32 word, each after a word per slot that says where its record starts, and sized by its own grid
 * (its cell arrays hold width × height cells, not MAX_CELLS); episode records are u32 words. The offsets below are also `const`s in the WGSL: a test
 * compares the two tables, so neither side can shift alone.
 */
import { MAX_CELLS, MAX_DOORS, MAX_FURNITURE, MAX_LANDMARKS, MAX_MILESTONES, MAX_OBJECTS, NUM_ACTIONS } from '../../envs/gridhouse/catalog.ts';
import type { LayoutPool } from '../../envs/gridhouse/layout.ts';
import type { GridHouseState } from '../../envs/gridhouse/state.ts';
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const GRIDHOUSE_STEP = defineKernel({
  name: 'gridhouse-step',
  params: uniformFields([
    ['numEpisodes', 'u32'],
    ['maxSteps', 'u32'],
    ['maxMilestones', 'u32'],
    /** 1: apply `actions` to live episodes first; 0: only write mask, features and key (after a reset). */
    ['applyActions', 'u32'],
  ]),
  storage: [
    ['layouts', 'read'],
    ['actions', 'read'],
    ['episodes', 'read_write'],
    ['mask', 'read_write'],
    ['obs', 'read_write'],
    ['actionFeatures', 'read_write'],
  ],
});

/** LayoutPool fields, in record order, with their byte counts per task instance. */
const LAYOUT_FIELDS = [
  ['SEED', 4],
  ['WIDTH', 1],
  ['HEIGHT', 1],
  ['START_CELL', 1],
  ['NUM_DOORS', 1],
  ['KEY_DOOR', 1],
  ['NUM_OBJECTS', 1],
  ['TREATMENT', 1],
  ['DESTINATION', 1],
  ['APPLIANCE', 1],
  ['NUM_MILESTONES', 1],
  ['KEY_COLOUR', 1],
  ['FURNITURE_KIND', MAX_FURNITURE],
  ['FURNITURE_CELL', MAX_FURNITURE],
  ['FURNITURE_ROOM', MAX_FURNITURE],
  ['DOOR_CELL', MAX_DOORS],
  ['DOOR_INITIAL', MAX_DOORS],
  ['OBJECT_KIND', MAX_OBJECTS],
  ['OBJECT_START', MAX_OBJECTS],
  ['MILESTONE_KIND', MAX_MILESTONES],
  ['MILESTONE_ARG', MAX_MILESTONES],
  /** The cell arrays, C = width × height bytes each (LAYOUT_CELL_ARRAYS of them). */
  ['CELLS', 0],
] as const;

/**
 * Cell arrays of a layout record, each of its C = width × height cells (LAYOUT_CELL_ARRAYS in the
 * WGSL): tiles, cell refs, cell rooms, then a distance field per landmark. LayoutPool keeps MAX_CELLS
 * per slot; cells past C are never read.
 */
export const LAYOUT_CELL_ARRAYS = 3 + MAX_LANDMARKS;

type LayoutField = (typeof LAYOUT_FIELDS)[number][0];

function offsets<N extends string>(fields: readonly (readonly [N, number])[]): { offset: Record<N, number>; size: number } {
  const offset = {} as Record<N, number>;
  let at = 0;
  for (const [name, count] of fields) {
    offset[name] = at;
    at += count;
  }
  return { offset, size: at };
}

const layoutTable = offsets(LAYOUT_FIELDS);
/** Byte offset of each field in a layout record (`L_<FIELD>` in the WGSL). */
export const LAYOUT_OFFSET: Readonly<Record<LayoutField, number>> = layoutTable.offset;

/** Bytes of a layout record for a grid of `cells` cells, rounded up to whole words. */
export function layoutBytes(cells: number): number {
  return Math.ceil((LAYOUT_OFFSET.CELLS + LAYOUT_CELL_ARRAYS * cells) / 4) * 4;
}

/** Episode record fields (u32 words), in order, with their counts. */
const EPISODE_FIELDS = [
  ['SLOT', 1],
  ['AGENT', 1],
  /** Object slot in hand, 255 for none (the state key's byte). */
  ['CARRIED', 1],
  ['PROGRESS', 1],
  ['NUM_MILESTONES', 1],
  /** Bit k: milestone k + 1 is completed but not reported (milestone dropout). */
  ['DROPPED', 1],
  ['STEPS', 1],
  ['DONE', 1],
  ['SUCCESS', 1],
  ['MILESTONE', 1],
  ['MILESTONES_REACHED', 1],
  ['STATE_KEY', 1],
  ['OBJECT_LOC', MAX_OBJECTS],
  ['OBJECT_FLAGS', MAX_OBJECTS],
  ['FURNITURE_LOAD', MAX_FURNITURE],
  ['DOOR_STATE', MAX_DOORS],
  ['FACED', 4],
  ['EFFECT', NUM_ACTIONS],
] as const;

export type EpisodeField = (typeof EPISODE_FIELDS)[number][0];
const episodeTable = offsets(EPISODE_FIELDS);
/** Word offset of each field in an episode record (`E_<FIELD>` in the WGSL). */
export const EPISODE_OFFSET: Readonly<Record<EpisodeField, number>> = episodeTable.offset;
/** Words per episode record (`EPISODE_WORDS` in the WGSL). */
export const EPISODE_WORDS = episodeTable.size;

/**
 * The layout records of task instances 0 … count − 1 of `pool`, as u32 words ready to upload: a word
 * per slot giving the first byte of its record, then the records, each sized by its grid.
 */
export function packGridHouseLayouts(pool: LayoutPool, count: number): Uint32Array {
  const starts = new Uint32Array(Math.max(1, count));
  let size = 4 * starts.length;
  for (let s = 0; s < count; s++) {
    starts[s] = size;
    size += layoutBytes(pool.width[s] * pool.height[s]);
  }
  const bytes = new Uint8Array(size);
  new Uint32Array(bytes.buffer, 0, starts.length).set(starts);
  const O = LAYOUT_OFFSET;
  const perSlot: readonly (readonly [LayoutField, Uint8Array, number])[] = [
    ['WIDTH', pool.width, 1],
    ['HEIGHT', pool.height, 1],
    ['START_CELL', pool.startCell, 1],
    ['NUM_DOORS', pool.numDoors, 1],
    ['KEY_DOOR', pool.keyDoor, 1],
    ['NUM_OBJECTS', pool.numObjects, 1],
    ['TREATMENT', pool.treatment, 1],
    ['DESTINATION', pool.destination, 1],
    ['APPLIANCE', pool.appliance, 1],
    ['NUM_MILESTONES', pool.numMilestones, 1],
    ['KEY_COLOUR', pool.keyColour, 1],
    ['FURNITURE_KIND', pool.furnitureKind, MAX_FURNITURE],
    ['FURNITURE_CELL', pool.furnitureCell, MAX_FURNITURE],
    ['FURNITURE_ROOM', pool.furnitureRoom, MAX_FURNITURE],
    ['DOOR_CELL', pool.doorCell, MAX_DOORS],
    ['DOOR_INITIAL', pool.doorInitial, MAX_DOORS],
    ['OBJECT_KIND', pool.objectKind, MAX_OBJECTS],
    ['OBJECT_START', pool.objectStart, MAX_OBJECTS],
    ['MILESTONE_KIND', pool.milestoneKind, MAX_MILESTONES],
    ['MILESTONE_ARG', pool.milestoneArg, MAX_MILESTONES],
  ];
  // The pool's cell arrays, MAX_CELLS per slot (per landmark for the distances): the first C of each.
  const cellArrays = [pool.tile, pool.cellRef, pool.cellRoom];
  const seeds = new DataView(bytes.buffer);
  for (let s = 0; s < count; s++) {
    const base = starts[s];
    seeds.setUint32(base + O.SEED, pool.seed[s], true);
    for (const [field, array, n] of perSlot) bytes.set(array.subarray(s * n, (s + 1) * n), base + O[field]);
    const C = pool.width[s] * pool.height[s];
    const cellRows = [
      ...cellArrays.map((array) => array.subarray(s * MAX_CELLS, s * MAX_CELLS + C)),
      ...Array.from({ length: MAX_LANDMARKS }, (_, l) => pool.dist.subarray((s * MAX_LANDMARKS + l) * MAX_CELLS, (s * MAX_LANDMARKS + l) * MAX_CELLS + C)),
    ];
    cellRows.forEach((row, k) => bytes.set(row, base + O.CELLS + k * C));
  }
  return new Uint32Array(bytes.buffer);
}

/**
 * The episode records of a freshly reset environment's state: positions, objects, doors and the
 * dropout bits (`dropped`, one byte per episode, bit k hides milestone k + 1).
 */
export function packGridHouseEpisodes(state: GridHouseState, dropped: Uint8Array): Uint32Array {
  const B = state.batchSize;
  const out = new Uint32Array(B * EPISODE_WORDS);
  const O = EPISODE_OFFSET;
  for (let b = 0; b < B; b++) {
    const e = b * EPISODE_WORDS;
    out[e + O.SLOT] = state.slot[b];
    out[e + O.AGENT] = state.agent[b];
    out[e + O.CARRIED] = state.carried[b] & 0xff;
    out[e + O.PROGRESS] = state.progress[b];
    out[e + O.NUM_MILESTONES] = state.numMilestones[b];
    out[e + O.DROPPED] = dropped[b];
    for (let o = 0; o < MAX_OBJECTS; o++) {
      out[e + O.OBJECT_LOC + o] = state.objectLoc[b * MAX_OBJECTS + o];
      out[e + O.OBJECT_FLAGS + o] = state.objectFlags[b * MAX_OBJECTS + o];
    }
    for (let f = 0; f < MAX_FURNITURE; f++) out[e + O.FURNITURE_LOAD + f] = state.furnitureLoad[b * MAX_FURNITURE + f];
    for (let d = 0; d < MAX_DOORS; d++) out[e + O.DOOR_STATE + d] = state.doorState[b * MAX_DOORS + d];
  }
  return out;
}

/** Number of task instances in use (slots 0 … max slot). */
export function usedLayoutSlots(state: GridHouseState): number {
  let max = -1;
  for (let b = 0; b < state.batchSize; b++) max = Math.max(max, state.slot[b]);
  return max + 1;
}
