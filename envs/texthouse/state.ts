/**
 * TextHouse episode state: every field of B episodes in flat typed arrays (episode b's receptacle r at
 * b·R + r, object o at b·O + o), plus the fixed command-slot layout and the Zobrist tables behind the
 * state key. Allocated once per environment; reset and step rewrite it in place.
 *
 * Command slots are fixed per horizon, so an action index names the same command for the whole episode:
 * [0, R) go to receptacle r; [R, R+O) take object o (from where it lies); then ten commands about the
 * receptacle the agent stands at or the object it holds (open, close, put, heat, cool, clean, use lamp,
 * look, inventory, examine).
 */
import { Rng } from '../../src/prng.ts';

/** `loc` before the first move: "the middle of the room". */
export const START = 255;
/** `held` when the hands are empty; also `dest`/`appliance`/`lampRec` when the task has none. */
export const NONE = 255;
/** `objLoc` of the object in the agent's hands. */
export const HELD = 254;

const NUM_FIXED_SLOTS = 10;
export const S_OPEN = 0;
export const S_CLOSE = 1;
export const S_PUT = 2;
export const S_HEAT = 3;
export const S_COOL = 4;
export const S_CLEAN = 5;
export const S_USE = 6;
export const S_LOOK = 7;
export const S_INVENTORY = 8;
export const S_EXAMINE = 9;

/** Largest receptacle and object counts any horizon uses (sizes the Zobrist tables). */
const ZOBRIST_MAX_REC = 16;
const ZOBRIST_MAX_OBJ = 16;
const ZOBRIST_MAX_PROGRESS = 8;

function zobristTable(rng: Rng, n: number): Uint32Array {
  const t = new Uint32Array(n);
  for (let i = 0; i < n; i++) t[i] = rng.nextUint32();
  return t;
}

// Fixed tables: the key of a state must not depend on anything but the state.
const zRng = new Rng(0x7e47_4853);
/** Agent location (receptacle index, or START at index ZOBRIST_MAX_REC). */
export const Z_LOC = zobristTable(zRng, ZOBRIST_MAX_REC + 1);
/** Object o at receptacle r: o·(MAX_REC+1) + r; held: r = MAX_REC. */
export const Z_OBJ_LOC = zobristTable(zRng, ZOBRIST_MAX_OBJ * (ZOBRIST_MAX_REC + 1));
/** Object o with flag bits f: o·8 + f. */
export const Z_OBJ_FLAGS = zobristTable(zRng, ZOBRIST_MAX_OBJ * 8);
/** Receptacle r closed. */
export const Z_CLOSED = zobristTable(zRng, ZOBRIST_MAX_REC);
/** Receptacle r's contents seen. */
export const Z_EXPLORED = zobristTable(zRng, ZOBRIST_MAX_REC);
/** Milestones completed so far (true progress, dropout does not change the state). */
export const Z_PROGRESS = zobristTable(zRng, ZOBRIST_MAX_PROGRESS);

/** Zobrist index of a location value (receptacle or START). */
export function zLocIndex(loc: number): number {
  return loc === START ? ZOBRIST_MAX_REC : loc;
}
/** Zobrist index of an object's location value (receptacle or HELD). */
export function zObjLocIndex(o: number, objLoc: number): number {
  return o * (ZOBRIST_MAX_REC + 1) + (objLoc === HELD ? ZOBRIST_MAX_REC : objLoc);
}

export class TextHouseState {
  readonly B: number;
  /** Receptacle slots per episode (R). */
  readonly R: number;
  /** Object slots per episode (O). */
  readonly O: number;
  /** Milestone slots per episode. */
  readonly M: number;
  /** Command slots per episode: R + O + NUM_FIXED_SLOTS. */
  readonly A: number;
  /** First fixed slot (open). */
  readonly fixedBase: number;
  /** 1 if look, inventory and examine are offered (horizon setting). */
  readonly idleCommands: number;

  // ---- Task instance (written by the layout generator, constant during the episode) ----
  readonly nRec: Uint8Array;
  readonly nObj: Uint8Array;
  readonly family: Uint8Array;
  readonly targetType: Uint8Array;
  readonly nTargets: Uint8Array;
  /** Object indices of the targets (target1 is NONE unless the family is pick-two). */
  readonly target0: Uint8Array;
  readonly target1: Uint8Array;
  /** Destination receptacle, or NONE (light family). */
  readonly dest: Uint8Array;
  /** Receptacle the task needs to visit with its target: the appliance, or the lamp's receptacle; or NONE. */
  readonly appliance: Uint8Array;
  /** Receptacle the desk lamp stands on, or NONE. */
  readonly lampRec: Uint8Array;
  /** Number of milestones of the task. */
  readonly nMs: Uint8Array;
  /** Milestone kinds in task order (B × M). */
  readonly msKind: Uint8Array;
  readonly recType: Uint8Array;
  /** Instance number of each receptacle within its type ("cabinet 2"). */
  readonly recNum: Uint8Array;
  readonly objType: Uint8Array;
  readonly objNum: Uint8Array;
  readonly objIsTarget: Uint8Array;

  // ---- Dynamic state ----
  readonly loc: Uint8Array;
  readonly held: Uint8Array;
  readonly progress: Uint8Array;
  readonly recClosed: Uint8Array;
  /** 1 once the agent has seen the receptacle's contents (contents change only by its own hand). */
  readonly explored: Uint8Array;
  /** Counts of explored and of closed receptacles (kept with the arrays above, for the observation). */
  readonly nExplored: Uint8Array;
  readonly nClosed: Uint8Array;
  readonly objLoc: Uint8Array;
  readonly objFlags: Uint8Array;
  /** Last command slot applied (-1 before the first), and the object it concerned; for text only. */
  readonly lastAction: Int16Array;
  readonly lastObj: Uint8Array;

  constructor(B: number, R: number, O: number, M: number, idleCommands: boolean) {
    if (R > ZOBRIST_MAX_REC || O > ZOBRIST_MAX_OBJ || M + 1 > ZOBRIST_MAX_PROGRESS) throw new RangeError('TextHouse layout too large');
    this.B = B;
    this.R = R;
    this.O = O;
    this.M = M;
    this.fixedBase = R + O;
    this.idleCommands = idleCommands ? 1 : 0;
    this.A = R + O + NUM_FIXED_SLOTS;
    this.nRec = new Uint8Array(B);
    this.nObj = new Uint8Array(B);
    this.family = new Uint8Array(B);
    this.targetType = new Uint8Array(B);
    this.nTargets = new Uint8Array(B);
    this.target0 = new Uint8Array(B);
    this.target1 = new Uint8Array(B);
    this.dest = new Uint8Array(B);
    this.appliance = new Uint8Array(B);
    this.lampRec = new Uint8Array(B);
    this.nMs = new Uint8Array(B);
    this.msKind = new Uint8Array(B * M);
    this.recType = new Uint8Array(B * R);
    this.recNum = new Uint8Array(B * R);
    this.objType = new Uint8Array(B * O);
    this.objNum = new Uint8Array(B * O);
    this.objIsTarget = new Uint8Array(B * O);
    this.loc = new Uint8Array(B);
    this.held = new Uint8Array(B);
    this.progress = new Uint8Array(B);
    this.recClosed = new Uint8Array(B * R);
    this.explored = new Uint8Array(B * R);
    this.nExplored = new Uint8Array(B);
    this.nClosed = new Uint8Array(B);
    this.objLoc = new Uint8Array(B * O);
    this.objFlags = new Uint8Array(B * O);
    this.lastAction = new Int16Array(B);
    this.lastObj = new Uint8Array(B);
  }

  /** The state key of episode b computed from scratch (step() keeps it up to date incrementally). */
  computeKey(b: number): number {
    const { R, O } = this;
    let k = Z_LOC[zLocIndex(this.loc[b])] ^ Z_PROGRESS[this.progress[b]];
    for (let r = 0; r < this.nRec[b]; r++) {
      if (this.recClosed[b * R + r]) k ^= Z_CLOSED[r];
      if (this.explored[b * R + r]) k ^= Z_EXPLORED[r];
    }
    for (let o = 0; o < this.nObj[b]; o++) {
      k ^= Z_OBJ_LOC[zObjLocIndex(o, this.objLoc[b * O + o])] ^ Z_OBJ_FLAGS[o * 8 + this.objFlags[b * O + o]];
    }
    return k >>> 0;
  }
}
