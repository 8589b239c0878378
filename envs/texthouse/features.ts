/**
 * TextHouse features for a policy that scores each candidate command against the observation.
 *
 * They hold only what an agent could see or remember, never planner output: nothing here reads the
 * oracle or knows which milestone comes next. A command's vector says what it does (verb one-hot), which
 * receptacle it concerns (type one-hot and what the agent knows of it: it is the task's destination, it
 * is the appliance or lamp the task names, its contents are not yet seen, it is closed, a target that
 * still needs taking was seen there, it has the lamp) and which object (is a target, already placed,
 * already processed as the task asks). The same vector describes "go to fridge 1" in every layout, so a
 * policy generalises across instances and horizons. The observation says what the task is (family,
 * destination type, target category), which milestone kinds are done, where the agent is, what it
 * holds and what it sees; which sub-goal comes next is left for the policy to work out.
 *
 * Writing is incremental: a step changes only the agent's receptacle and the objects there or in hand,
 * so only the admissible slots that refer to those are rewritten; the rest keep their values from reset.
 * Features of masked slots are left stale (the policy ignores them).
 */
import { needsTaking, targetsPlaced, wantedInView } from './milestones.ts';
import { HELD, NONE, S_CLEAN, S_CLOSE, S_COOL, S_EXAMINE, S_HEAT, S_OPEN, S_PUT, S_USE, START, type TextHouseState } from './state.ts';
import {
  FAMILY_FLAG,
  FAMILY_NAMES,
  FLAG_CLEAN,
  MILESTONE_KIND_NAMES,
  REC_NAMES,
  FLAG_COLD,
  FLAG_HOT,
  NUM_CATEGORIES,
  NUM_FAMILIES,
  NUM_MILESTONE_KINDS,
  NUM_REC_TYPES,
  NUM_VERBS,
  OBJ_CATEGORY,
  REC_OPENABLE,
  V_CLEAN,
  V_CLOSE,
  V_COOL,
  V_EXAMINE,
  V_GOTO,
  V_HEAT,
  V_INVENTORY,
  V_LOOK,
  V_OPEN,
  V_PUT,
  V_TAKE,
  V_USE,
} from './vocabulary.ts';

// ---- Action feature layout ----
const A_VERB = 0;
const A_REC_TYPE = A_VERB + NUM_VERBS;
const A_DEST = A_REC_TYPE + NUM_REC_TYPES;
const A_APPLIANCE = A_DEST + 1;
const A_UNEXPLORED = A_DEST + 2;
const A_CLOSED = A_DEST + 3;
const A_TARGET_SEEN = A_DEST + 4;
const A_LAMP = A_DEST + 5;
const A_OBJ_TARGET = A_DEST + 6;
const A_OBJ_PLACED = A_DEST + 7;
const A_OBJ_PROCESSED = A_DEST + 8;
const A_BIAS = A_DEST + 9;
export const ACTION_DIM = A_BIAS + 1;

/** Name of each action feature, for tools and tests (the layout above, in order). */
export const ACTION_FEATURE_NAMES: readonly string[] = [
  ...['goto', 'open', 'close', 'take', 'put', 'heat', 'cool', 'clean', 'use', 'look', 'inventory', 'examine'].map((v) => `verb:${v}`),
  ...REC_NAMES.map((r) => `rec:${r}`),
  'rec:is_destination',
  'rec:is_needed_appliance',
  'rec:unexplored',
  'rec:closed',
  'rec:target_seen_here',
  'rec:has_lamp',
  'obj:is_target',
  'obj:placed',
  'obj:processed',
  'bias',
];

/** Verb of each fixed slot (open, close, put, heat, cool, clean, use, look, inventory, examine). */
const FIXED_VERBS = [V_OPEN, V_CLOSE, V_PUT, V_HEAT, V_COOL, V_CLEAN, V_USE, V_LOOK, V_INVENTORY, V_EXAMINE];

// ---- Observation layout ----
const O_FAMILY = 0;
const O_DONE = O_FAMILY + NUM_FAMILIES;
const O_PROGRESS = O_DONE + NUM_MILESTONE_KINDS;
const O_LOC_TYPE = O_PROGRESS + 1;
const O_AT_START = O_LOC_TYPE + NUM_REC_TYPES;
const O_HERE_DEST = O_AT_START + 1;
const O_HERE_APPLIANCE = O_AT_START + 2;
const O_HERE_CLOSED = O_AT_START + 3;
const O_HERE_LAMP = O_AT_START + 4;
const O_HERE_OPENABLE = O_AT_START + 5;
const O_HANDS_FREE = O_AT_START + 6;
const O_HOLD_TARGET = O_AT_START + 7;
const O_HOLD_OTHER = O_AT_START + 8;
const O_HELD_HOT = O_AT_START + 9;
const O_HELD_COLD = O_AT_START + 10;
const O_HELD_CLEAN = O_AT_START + 11;
const O_HELD_PROCESSED = O_AT_START + 12;
const O_TARGET_HERE = O_AT_START + 13;
const O_OBJECTS_HERE = O_AT_START + 14;
const O_PLACED = O_AT_START + 15;
const O_TARGET_KNOWN = O_AT_START + 16;
const O_EXPLORED = O_AT_START + 17;
const O_CLOSED_FRAC = O_AT_START + 18;
const O_DEST_CLOSED = O_AT_START + 19;
const O_DEST_TYPE = O_AT_START + 20;
const O_CATEGORY = O_DEST_TYPE + NUM_REC_TYPES;
export const OBS_DIM = O_CATEGORY + NUM_CATEGORIES;

/** Name of each observation feature, for tools and tests (the layout above, in order). */
export const OBS_FEATURE_NAMES: readonly string[] = [
  ...FAMILY_NAMES.map((f) => `family:${f}`),
  ...MILESTONE_KIND_NAMES.map((m) => `done:${m}`),
  'progress',
  ...REC_NAMES.map((r) => `here:${r}`),
  'at_start',
  'here:is_destination',
  'here:is_needed_appliance',
  'here:closed',
  'here:has_lamp',
  'here:openable',
  'hands_free',
  'holding:target',
  'holding:other',
  'held:hot',
  'held:cold',
  'held:clean',
  'held:processed',
  'target_in_view',
  'objects_in_view',
  'targets_placed',
  'target_location_known',
  'explored_fraction',
  'closed_fraction',
  'destination_closed',
  ...REC_NAMES.map((r) => `destination:${r}`),
  ...['food', 'dish', 'utensil', 'item'].map((c) => `target:${c}`),
];

/** 1 if the agent has seen a target that still needs taking lying at receptacle r. */
function targetSeenAt(s: TextHouseState, b: number, r: number): number {
  if (!s.explored[b * s.R + r]) return 0;
  const t0 = s.target0[b];
  const t1 = s.target1[b];
  if (s.objLoc[b * s.O + t0] === r && needsTaking(s, b, t0)) return 1;
  if (t1 !== NONE && s.objLoc[b * s.O + t1] === r && needsTaking(s, b, t1)) return 1;
  return 0;
}

/** Receptacle block (type one-hot and task flags) of receptacle r into the slot at `off`. */
function writeRec(f: Float32Array, off: number, s: TextHouseState, b: number, r: number): void {
  const i = b * s.R + r;
  const type = s.recType[i];
  for (let t = 0; t < NUM_REC_TYPES; t++) f[off + A_REC_TYPE + t] = t === type ? 1 : 0;
  f[off + A_DEST] = r === s.dest[b] ? 1 : 0;
  f[off + A_APPLIANCE] = r === s.appliance[b] ? 1 : 0;
  f[off + A_UNEXPLORED] = 1 - s.explored[i];
  f[off + A_CLOSED] = s.recClosed[i];
  f[off + A_TARGET_SEEN] = targetSeenAt(s, b, r);
  f[off + A_LAMP] = r === s.lampRec[b] ? 1 : 0;
}

/** Object block of object o (or zeros for NONE) into the slot at `off`. */
function writeObj(f: Float32Array, off: number, s: TextHouseState, b: number, o: number): void {
  if (o === NONE) {
    f[off + A_OBJ_TARGET] = 0;
    f[off + A_OBJ_PLACED] = 0;
    f[off + A_OBJ_PROCESSED] = 0;
    return;
  }
  const i = b * s.O + o;
  const flag = FAMILY_FLAG[s.family[b]];
  f[off + A_OBJ_TARGET] = s.objIsTarget[i];
  f[off + A_OBJ_PLACED] = s.objIsTarget[i] && !needsTaking(s, b, o) ? 1 : 0;
  f[off + A_OBJ_PROCESSED] = flag !== 0 && (s.objFlags[i] & flag) !== 0 ? 1 : 0;
}

/** Fixed slots that concern the held object. */
const HELD_SLOTS = [S_PUT, S_HEAT, S_COOL, S_CLEAN];

/** Writes every slot of episode b from scratch: constant parts, then the current state's parts. */
export function initActionFeatures(s: TextHouseState, f: Float32Array, mask: Uint8Array, b: number): void {
  const { A, R, O } = s;
  const D = ACTION_DIM;
  f.fill(0, b * A * D, (b + 1) * A * D);
  for (let a = 0; a < A; a++) {
    const off = (b * A + a) * D;
    const verb = a < R ? V_GOTO : a < R + O ? V_TAKE : FIXED_VERBS[a - R - O];
    f[off + A_VERB + verb] = 1;
    f[off + A_BIAS] = 1;
    if (a < s.nRec[b]) writeRec(f, off, s, b, a);
  }
  refreshActionFeatures(s, f, mask, b);
}

/**
 * After a step: rewrites the slots whose inputs the step may have changed (the go-to slot of the agent's
 * receptacle, admissible take slots, admissible fixed slots). Needs the mask already written.
 */
export function refreshActionFeatures(s: TextHouseState, f: Float32Array, mask: Uint8Array, b: number): void {
  const { A, R, O } = s;
  const D = ACTION_DIM;
  const loc = s.loc[b];
  if (loc === START) return; // only go-to, look and inventory are admissible; nothing has changed yet
  const slot0 = b * A;
  writeRec(f, (slot0 + loc) * D, s, b, loc);
  for (let o = 0; o < s.nObj[b]; o++) {
    if (mask[slot0 + R + o]) {
      const off = (slot0 + R + o) * D;
      writeRec(f, off, s, b, loc);
      writeObj(f, off, s, b, o);
    }
  }
  const fb = slot0 + R + O;
  const held = s.held[b];
  if (mask[fb + S_OPEN]) writeRec(f, (fb + S_OPEN) * D, s, b, loc);
  if (mask[fb + S_CLOSE]) writeRec(f, (fb + S_CLOSE) * D, s, b, loc);
  if (mask[fb + S_EXAMINE]) writeRec(f, (fb + S_EXAMINE) * D, s, b, loc);
  if (mask[fb + S_USE]) {
    writeRec(f, (fb + S_USE) * D, s, b, loc);
    writeObj(f, (fb + S_USE) * D, s, b, held);
  }
  if (held !== NONE) {
    for (const k of HELD_SLOTS) {
      if (mask[fb + k]) {
        writeRec(f, (fb + k) * D, s, b, loc);
        writeObj(f, (fb + k) * D, s, b, held);
      }
    }
  }
}

/** Rewrites episode b's observation vector. */
export function writeObs(s: TextHouseState, obs: Float32Array, b: number): void {
  const { R, O } = s;
  const off = b * OBS_DIM;
  obs.fill(0, off, off + OBS_DIM);
  const family = s.family[b];
  obs[off + O_FAMILY + family] = 1;
  const progress = s.progress[b];
  const nMs = s.nMs[b];
  for (let k = 0; k < progress; k++) obs[off + O_DONE + s.msKind[b * s.M + k]] = 1;
  obs[off + O_PROGRESS] = progress / nMs;

  const loc = s.loc[b];
  const nRec = s.nRec[b];
  if (loc === START) {
    obs[off + O_AT_START] = 1;
  } else {
    const i = b * R + loc;
    obs[off + O_LOC_TYPE + s.recType[i]] = 1;
    obs[off + O_HERE_DEST] = loc === s.dest[b] ? 1 : 0;
    obs[off + O_HERE_APPLIANCE] = loc === s.appliance[b] ? 1 : 0;
    obs[off + O_HERE_CLOSED] = s.recClosed[i];
    obs[off + O_HERE_LAMP] = loc === s.lampRec[b] ? 1 : 0;
    obs[off + O_HERE_OPENABLE] = REC_OPENABLE[s.recType[i]];
    if (!s.recClosed[i]) {
      let n = 0;
      for (let o = 0; o < s.nObj[b]; o++) if (s.objLoc[b * O + o] === loc) n++;
      obs[off + O_OBJECTS_HERE] = Math.min(1, n / 4);
    }
  }

  const held = s.held[b];
  if (held === NONE) {
    obs[off + O_HANDS_FREE] = 1;
  } else {
    const flags = s.objFlags[b * O + held];
    const flag = FAMILY_FLAG[family];
    obs[off + (s.objIsTarget[b * O + held] ? O_HOLD_TARGET : O_HOLD_OTHER)] = 1;
    obs[off + O_HELD_HOT] = flags & FLAG_HOT ? 1 : 0;
    obs[off + O_HELD_COLD] = flags & FLAG_COLD ? 1 : 0;
    obs[off + O_HELD_CLEAN] = flags & FLAG_CLEAN ? 1 : 0;
    obs[off + O_HELD_PROCESSED] = flag !== 0 && (flags & flag) !== 0 ? 1 : 0;
  }
  obs[off + O_TARGET_HERE] = wantedInView(s, b) ? 1 : 0;
  obs[off + O_PLACED] = targetsPlaced(s, b) / s.nTargets[b];

  let known = 0;
  for (let t = 0; t < 2; t++) {
    const o = t === 0 ? s.target0[b] : s.target1[b];
    if (o === NONE) continue;
    const l = s.objLoc[b * O + o];
    if (l === HELD || (needsTaking(s, b, o) && s.explored[b * R + l])) known = 1;
  }
  obs[off + O_TARGET_KNOWN] = known;
  obs[off + O_EXPLORED] = s.nExplored[b] / nRec;
  obs[off + O_CLOSED_FRAC] = s.nClosed[b] / nRec;

  const dest = s.dest[b];
  if (dest !== NONE) {
    obs[off + O_DEST_CLOSED] = s.recClosed[b * R + dest];
    obs[off + O_DEST_TYPE + s.recType[b * R + dest]] = 1;
  }
  obs[off + O_CATEGORY + OBJ_CATEGORY[s.targetType[b]]] = 1;
}
