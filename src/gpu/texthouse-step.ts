/**
 * TextHouse on the GPU: the runner table of shaders/texthouse-step.wgsl and the packing of what it reads
 * and writes. One invocation per episode applies the sampled command (envs/texthouse/commands.ts), runs
 * Φ and the episode bookkeeping (milestones.ts, envs/episode-book.ts, with milestone dropout,
 * docs/maths.md §2 and §6), and rewrites the mask, the features (features.ts, incrementally as on the
 * CPU, so even the stale features of masked slots agree) and the state key (state.ts Zobrist tables).
 *
 * Each episode's task (written by the seeded generator at reset) and its changing state share one record
 * of u32 words with fixed capacities, so offsets do not depend on the horizon; the offsets below are
 * also `const`s in the WGSL, and a test compares the two tables.
 */
import { type TextHouseState, Z_CLOSED, Z_EXPLORED, Z_LOC, Z_OBJ_FLAGS, Z_OBJ_LOC, Z_PROGRESS } from '../../envs/texthouse/state.ts';
import { OBJ_CATEGORY } from '../../envs/texthouse/vocabulary.ts';
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const TEXTHOUSE_STEP = defineKernel({
  name: 'texthouse-step',
  params: uniformFields([
    ['numEpisodes', 'u32'],
    ['maxSteps', 'u32'],
    /** R: receptacle slots per episode (go-to commands come first). */
    ['numRec', 'u32'],
    /** O: object slots per episode (take commands follow). */
    ['numObj', 'u32'],
    /** A = R + O + 10 command slots. */
    ['numActions', 'u32'],
    ['idleCommands', 'u32'],
    /** 1: apply `actions` to live episodes first; 0: write mask, features and key of a fresh reset. */
    ['applyActions', 'u32'],
  ]),
  storage: [
    ['zobrist', 'read'],
    ['actions', 'read'],
    ['episodes', 'read_write'],
    ['mask', 'read_write'],
    ['obs', 'read_write'],
    ['actionFeatures', 'read_write'],
  ],
});

/** Capacities of the record's arrays (TextHouseState refuses larger layouts: its Zobrist tables). */
const REC_CAP = 16;
const OBJ_CAP = 16;
const MS_CAP = 8;

const EPISODE_FIELDS = [
  ['NREC', 1],
  ['NOBJ', 1],
  ['FAMILY', 1],
  /** OBJ_CATEGORY of the target type (the only use the features make of it). */
  ['TARGET_CATEGORY', 1],
  ['NTARGETS', 1],
  ['TARGET0', 1],
  ['TARGET1', 1],
  ['DEST', 1],
  ['APPLIANCE', 1],
  ['LAMP_REC', 1],
  ['NMS', 1],
  ['LOC', 1],
  ['HELD', 1],
  ['PROGRESS', 1],
  ['N_EXPLORED', 1],
  ['N_CLOSED', 1],
  /** Last command slot applied, 0xffffffff before the first. */
  ['LAST_ACTION', 1],
  /** Bit k: milestone k + 1 is completed but not reported (milestone dropout). */
  ['DROPPED', 1],
  ['STEPS', 1],
  ['DONE', 1],
  ['SUCCESS', 1],
  ['MILESTONE', 1],
  ['MILESTONES_REACHED', 1],
  ['STATE_KEY', 1],
  ['MS_KIND', MS_CAP],
  ['REC_TYPE', REC_CAP],
  ['REC_CLOSED', REC_CAP],
  ['EXPLORED', REC_CAP],
  ['OBJ_IS_TARGET', OBJ_CAP],
  ['OBJ_LOC', OBJ_CAP],
  ['OBJ_FLAGS', OBJ_CAP],
] as const;

export type TextEpisodeField = (typeof EPISODE_FIELDS)[number][0];

function offsets<N extends string>(fields: readonly (readonly [N, number])[]): { offset: Record<N, number>; size: number } {
  const offset = {} as Record<N, number>;
  let at = 0;
  for (const [name, count] of fields) {
    offset[name] = at;
    at += count;
  }
  return { offset, size: at };
}

const episodeTable = offsets(EPISODE_FIELDS);
/** Word offset of each field in an episode record (`E_<FIELD>` in the WGSL). */
export const TEXT_EPISODE_OFFSET: Readonly<Record<TextEpisodeField, number>> = episodeTable.offset;
/** Words per episode record (`EPISODE_WORDS` in the WGSL). */
export const TEXT_EPISODE_WORDS = episodeTable.size;

const zobristTable = offsets([
  ['LOC', Z_LOC.length],
  ['OBJ_LOC', Z_OBJ_LOC.length],
  ['OBJ_FLAGS', Z_OBJ_FLAGS.length],
  ['CLOSED', Z_CLOSED.length],
  ['EXPLORED', Z_EXPLORED.length],
  ['PROGRESS', Z_PROGRESS.length],
] as const);
/** Word offset of each Zobrist table in the `zobrist` buffer (`Z_<TABLE>` in the WGSL). */
export const ZOBRIST_OFFSET = zobristTable.offset;

/** The Zobrist tables of the state key, concatenated in ZOBRIST_OFFSET order, ready to upload. */
export function packZobristTables(): Uint32Array {
  const out = new Uint32Array(zobristTable.size);
  out.set(Z_LOC, ZOBRIST_OFFSET.LOC);
  out.set(Z_OBJ_LOC, ZOBRIST_OFFSET.OBJ_LOC);
  out.set(Z_OBJ_FLAGS, ZOBRIST_OFFSET.OBJ_FLAGS);
  out.set(Z_CLOSED, ZOBRIST_OFFSET.CLOSED);
  out.set(Z_EXPLORED, ZOBRIST_OFFSET.EXPLORED);
  out.set(Z_PROGRESS, ZOBRIST_OFFSET.PROGRESS);
  return out;
}

/**
 * The episode records of a freshly reset environment's state (task and start state) and its dropout
 * bits (`dropped`, one byte per episode, bit k hides milestone k + 1).
 */
export function packTextHouseEpisodes(s: TextHouseState, dropped: Uint8Array): Uint32Array {
  const { B, R, O, M } = s;
  if (R > REC_CAP || O > OBJ_CAP || M > MS_CAP)
    throw new RangeError(`texthouse-step: a record holds at most ${REC_CAP} receptacles, ${OBJ_CAP} objects and ${MS_CAP} milestones; got ${R}, ${O}, ${M}`);
  const out = new Uint32Array(B * TEXT_EPISODE_WORDS);
  const F = TEXT_EPISODE_OFFSET;
  for (let b = 0; b < B; b++) {
    const e = b * TEXT_EPISODE_WORDS;
    const scalars: [TextEpisodeField, number][] = [
      ['NREC', s.nRec[b]],
      ['NOBJ', s.nObj[b]],
      ['FAMILY', s.family[b]],
      ['TARGET_CATEGORY', OBJ_CATEGORY[s.targetType[b]]],
      ['NTARGETS', s.nTargets[b]],
      ['TARGET0', s.target0[b]],
      ['TARGET1', s.target1[b]],
      ['DEST', s.dest[b]],
      ['APPLIANCE', s.appliance[b]],
      ['LAMP_REC', s.lampRec[b]],
      ['NMS', s.nMs[b]],
      ['LOC', s.loc[b]],
      ['HELD', s.held[b]],
      ['PROGRESS', s.progress[b]],
      ['N_EXPLORED', s.nExplored[b]],
      ['N_CLOSED', s.nClosed[b]],
      ['LAST_ACTION', s.lastAction[b] >>> 0],
      ['DROPPED', dropped[b]],
    ];
    for (const [field, value] of scalars) out[e + F[field]] = value;
    for (let m = 0; m < M; m++) out[e + F.MS_KIND + m] = s.msKind[b * M + m];
    for (let r = 0; r < R; r++) {
      out[e + F.REC_TYPE + r] = s.recType[b * R + r];
      out[e + F.REC_CLOSED + r] = s.recClosed[b * R + r];
      // Past the task's receptacles the state keeps an earlier episode's flags, which nothing reads:
      // packed as 0, so that episodes reset alike pack alike (src/trainer/rollout-records.ts uploads each such record once).
      out[e + F.EXPLORED + r] = r < s.nRec[b] ? s.explored[b * R + r] : 0;
    }
    for (let o = 0; o < O; o++) {
      out[e + F.OBJ_IS_TARGET + o] = s.objIsTarget[b * O + o];
      out[e + F.OBJ_LOC + o] = s.objLoc[b * O + o];
      out[e + F.OBJ_FLAGS + o] = s.objFlags[b * O + o];
    }
  }
  return out;
}
