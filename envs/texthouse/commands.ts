/**
 * TextHouse commands: which command slots are admissible in a state (the mask), and what applying one
 * does to the state. The state key is kept up to date by XOR-ing Zobrist terms in and out as each field
 * changes, so it costs O(1) per step. Milestones and features are not handled here.
 *
 * Semantics follow ALFWorld: closed containers hide their contents and must be opened to take from or
 * put into them; heat/cool/clean work on the held object at the microwave, fridge or sink basin; the
 * desk lamp is used where it stands; look, inventory and examine change nothing.
 */
import {
  HELD,
  NONE,
  S_CLEAN,
  S_CLOSE,
  S_COOL,
  S_EXAMINE,
  S_HEAT,
  S_INVENTORY,
  S_LOOK,
  S_OPEN,
  S_PUT,
  S_USE,
  START,
  Z_CLOSED,
  Z_EXPLORED,
  Z_LOC,
  Z_OBJ_FLAGS,
  Z_OBJ_LOC,
  type TextHouseState,
  zLocIndex,
  zObjLocIndex,
} from './state.ts';
import { FLAG_CLEAN, FLAG_COLD, FLAG_HOT, R_FRIDGE, R_MICROWAVE, R_SINKBASIN, REC_OPENABLE } from './vocabulary.ts';

/** Rewrites episode b's row of the admissibility mask (A entries) from its state. */
export function writeMask(s: TextHouseState, mask: Uint8Array, b: number): void {
  const { R, O, A } = s;
  const base = b * A;
  const loc = s.loc[b];
  const held = s.held[b];
  const nRec = s.nRec[b];
  const nObj = s.nObj[b];
  const atStart = loc === START;
  for (let r = 0; r < R; r++) mask[base + r] = r < nRec && r !== loc ? 1 : 0;
  const type = atStart ? -1 : s.recType[b * R + loc];
  const closed = atStart ? 1 : s.recClosed[b * R + loc];
  const reach = !atStart && closed === 0;
  const free = held === NONE;
  const takeOk = reach && free;
  for (let o = 0; o < O; o++) mask[base + R + o] = takeOk && o < nObj && s.objLoc[b * O + o] === loc ? 1 : 0;
  const f = base + s.fixedBase;
  const openable = !atStart && REC_OPENABLE[type] === 1;
  mask[f + S_OPEN] = openable && closed === 1 ? 1 : 0;
  mask[f + S_CLOSE] = openable && closed === 0 ? 1 : 0;
  mask[f + S_PUT] = reach && !free ? 1 : 0;
  mask[f + S_HEAT] = !free && type === R_MICROWAVE ? 1 : 0;
  mask[f + S_COOL] = !free && type === R_FRIDGE ? 1 : 0;
  mask[f + S_CLEAN] = !free && type === R_SINKBASIN ? 1 : 0;
  mask[f + S_USE] = !atStart && loc === s.lampRec[b] ? 1 : 0;
  const idle = s.idleCommands;
  mask[f + S_LOOK] = idle;
  mask[f + S_INVENTORY] = idle;
  mask[f + S_EXAMINE] = atStart ? 0 : idle;
}

/** Marks the agent's receptacle as explored if its contents are in view. */
function see(s: TextHouseState, key: Uint32Array, b: number, r: number): void {
  const i = b * s.R + r;
  if (s.recClosed[i] === 0 && s.explored[i] === 0) {
    s.explored[i] = 1;
    s.nExplored[b]++;
    key[b] ^= Z_EXPLORED[r];
  }
}

function setFlags(s: TextHouseState, key: Uint32Array, b: number, o: number, flags: number): void {
  const i = b * s.O + o;
  key[b] ^= Z_OBJ_FLAGS[o * 8 + s.objFlags[i]] ^ Z_OBJ_FLAGS[o * 8 + flags];
  s.objFlags[i] = flags;
}

/**
 * Applies admissible command slot a to episode b (the caller checks admissibility), updating the state
 * key incrementally. Records the slot and the object it concerned for text.
 */
export function applyCommand(s: TextHouseState, key: Uint32Array, b: number, a: number): void {
  const { R, O } = s;
  const loc = s.loc[b];
  const held = s.held[b];
  s.lastAction[b] = a;
  s.lastObj[b] = held;
  if (a < R) {
    key[b] ^= Z_LOC[zLocIndex(loc)] ^ Z_LOC[a];
    s.loc[b] = a;
    see(s, key, b, a);
    return;
  }
  if (a < R + O) {
    const o = a - R;
    key[b] ^= Z_OBJ_LOC[zObjLocIndex(o, loc)] ^ Z_OBJ_LOC[zObjLocIndex(o, HELD)];
    s.objLoc[b * O + o] = HELD;
    s.held[b] = o;
    s.lastObj[b] = o;
    return;
  }
  switch (a - s.fixedBase) {
    case S_OPEN:
      s.recClosed[b * R + loc] = 0;
      s.nClosed[b]--;
      key[b] ^= Z_CLOSED[loc];
      see(s, key, b, loc);
      return;
    case S_CLOSE:
      s.recClosed[b * R + loc] = 1;
      s.nClosed[b]++;
      key[b] ^= Z_CLOSED[loc];
      return;
    case S_PUT:
      key[b] ^= Z_OBJ_LOC[zObjLocIndex(held, HELD)] ^ Z_OBJ_LOC[zObjLocIndex(held, loc)];
      s.objLoc[b * O + held] = loc;
      s.held[b] = NONE;
      return;
    case S_HEAT:
      setFlags(s, key, b, held, (s.objFlags[b * O + held] | FLAG_HOT) & ~FLAG_COLD);
      return;
    case S_COOL:
      setFlags(s, key, b, held, (s.objFlags[b * O + held] | FLAG_COLD) & ~FLAG_HOT);
      return;
    case S_CLEAN:
      setFlags(s, key, b, held, s.objFlags[b * O + held] | FLAG_CLEAN);
      return;
    default: // use lamp, look, inventory, examine: no state change
      return;
  }
}
