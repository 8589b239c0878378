/**
 * TextHouse task generation: from a task seed and a horizon, draws one task instance (family, target,
 * destination, receptacles, objects and where they lie) and writes it, with the episode's starting
 * state, into slot b of a TextHouseState. Depends only on (seed, horizon), so equal seeds give equal
 * instances (a GRPO group). Milestone dropout is not decided here (the environment draws it from the
 * rollout's rng).
 *
 * Generation guarantees the oracle's plan exists: the destination, the needed appliance and the lamp are
 * present and distinct, the targets start elsewhere, and only the targets have the target's type.
 */
import { Rng } from '../../src/prng.ts';
import type { HorizonConfig } from './config.ts';
import { HELD, NONE, START, type TextHouseState } from './state.ts';
import {
  F_LIGHT,
  F_PICK,
  F_PICKTWO,
  FAMILY_APPLIANCE,
  FAMILY_TARGET_TYPES,
  FILLER_CLOSED,
  FILLER_OPEN,
  LAMP_HOLDERS,
  NUM_OBJ_TYPES,
  OBJ_HOMES,
  R_CABINET,
  R_DRAWER,
  R_FRIDGE,
  R_MICROWAVE,
  R_SINKBASIN,
  REC_OPENABLE,
} from './vocabulary.ts';

const APPLIANCES = [R_FRIDGE, R_MICROWAVE, R_SINKBASIN];
const CLOSED_DEST_PICK = [R_CABINET, R_DRAWER, R_FRIDGE, R_MICROWAVE];

// Scratch buffers (the generator runs for one episode at a time).
const types = new Int32Array(32);
const order = new Int32Array(32);
const rank = new Int32Array(32);
const objTypes = new Int32Array(64);
const candidates = new Int32Array(32);

function pick(rng: Rng, xs: readonly number[]): number {
  return xs[rng.nextInt(xs.length)];
}

function hasType(n: number, t: number): boolean {
  for (let i = 0; i < n; i++) if (types[i] === t) return true;
  return false;
}

/** Writes a freshly generated task instance and its start state into episode b. */
export function generateTask(s: TextHouseState, b: number, seed: number, cfg: HorizonConfig): void {
  const rng = new Rng(seed);
  const family = pick(rng, cfg.families);
  const nRec = cfg.recMin + rng.nextInt(cfg.recMax - cfg.recMin + 1);
  const nObj = cfg.objMin + rng.nextInt(cfg.objMax - cfg.objMin + 1);

  // ---- Receptacles, as unsorted positions first: destination, appliance or lamp, then fillers. ----
  let n = 0;
  let destPos = -1;
  let applPos = -1;
  let lampPos = -1;
  const applType = FAMILY_APPLIANCE[family];
  if (family !== F_LIGHT) {
    const closedDest = rng.bernoulli(cfg.closedDestProb);
    const pickLike = family === F_PICK || family === F_PICKTWO;
    types[n] = closedDest ? (pickLike ? pick(rng, CLOSED_DEST_PICK) : pick(rng, FILLER_CLOSED)) : pick(rng, FILLER_OPEN);
    destPos = n++;
  }
  if (applType >= 0) {
    types[n] = applType;
    applPos = n++;
  } else if (family === F_LIGHT) {
    types[n] = pick(rng, LAMP_HOLDERS);
    applPos = lampPos = n++;
  }
  while (n < nRec) {
    let t: number;
    if (rng.bernoulli(cfg.applianceFillerProb)) {
      t = pick(rng, APPLIANCES);
      if (hasType(n, t)) t = pick(rng, FILLER_OPEN);
    } else if (rng.bernoulli(cfg.closedFillerProb)) {
      t = pick(rng, FILLER_CLOSED);
    } else {
      t = pick(rng, FILLER_OPEN);
    }
    types[n++] = t;
  }
  if (lampPos < 0 && rng.bernoulli(cfg.spareLampProb)) {
    for (let i = 0; i < nRec; i++) {
      if (i !== destPos && (types[i] === LAMP_HOLDERS[0] || types[i] === LAMP_HOLDERS[1])) {
        lampPos = i;
        break;
      }
    }
  }

  // Sort by type (stable), as ALFWorld lists them, and number instances within each type.
  for (let i = 0; i < nRec; i++) order[i] = i;
  for (let i = 1; i < nRec; i++) {
    const v = order[i];
    let j = i - 1;
    while (j >= 0 && types[order[j]] > types[v]) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = v;
  }
  const R = s.R;
  let nClosed = 0;
  for (let r = 0; r < nRec; r++) {
    const t = types[order[r]];
    rank[order[r]] = r;
    s.recType[b * R + r] = t;
    s.recNum[b * R + r] = r > 0 && s.recType[b * R + r - 1] === t ? s.recNum[b * R + r - 1] + 1 : 1;
    s.recClosed[b * R + r] = REC_OPENABLE[t];
    nClosed += REC_OPENABLE[t];
    s.explored[b * R + r] = 0;
  }
  const dest = destPos < 0 ? NONE : rank[destPos];
  const appliance = applPos < 0 ? NONE : rank[applPos];
  const lampRec = lampPos < 0 ? NONE : rank[lampPos];

  // ---- Objects: the targets (one type) and distractors of distinct other types, in shuffled slots. ----
  const targetType = pick(rng, FAMILY_TARGET_TYPES[family]);
  const nTargets = family === F_PICKTWO ? 2 : 1;
  let m = 0;
  for (let t = 0; t < NUM_OBJ_TYPES; t++) if (t !== targetType) objTypes[m++] = t;
  for (let i = 0; i < nObj - nTargets; i++) {
    const j = i + rng.nextInt(m - i);
    const v = objTypes[j];
    objTypes[j] = objTypes[i];
    objTypes[i] = v;
  }
  // Slot list: distractors first, then targets, then shuffle the first nObj entries into place.
  for (let i = nObj - nTargets; i < nObj; i++) objTypes[i] = targetType;
  for (let i = nObj - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const v = objTypes[i];
    objTypes[i] = objTypes[j];
    objTypes[j] = v;
  }
  const O = s.O;
  let targetNum = 0;
  s.target1[b] = NONE;
  for (let o = 0; o < nObj; o++) {
    const t = objTypes[o];
    const isTarget = t === targetType ? 1 : 0;
    s.objType[b * O + o] = t;
    s.objNum[b * O + o] = isTarget ? ++targetNum : 1;
    if (isTarget) (targetNum === 1 ? s.target0 : s.target1)[b] = o;
    s.objIsTarget[b * O + o] = isTarget;
    s.objFlags[b * O + o] = 0;
    s.objLoc[b * O + o] = isTarget ? placeTarget(rng, s, b, nRec, dest, appliance, lampRec, cfg) : placeDistractor(rng, s, b, nRec, t);
  }

  s.nRec[b] = nRec;
  s.nClosed[b] = nClosed;
  s.nExplored[b] = 0;
  s.nObj[b] = nObj;
  s.family[b] = family;
  s.targetType[b] = targetType;
  s.nTargets[b] = nTargets;
  s.dest[b] = dest;
  s.appliance[b] = appliance;
  s.lampRec[b] = lampRec;
  const kinds = cfg.milestones[family];
  s.nMs[b] = kinds.length;
  for (let k = 0; k < s.M; k++) s.msKind[b * s.M + k] = k < kinds.length ? kinds[k] : 0;
  s.loc[b] = START;
  s.held[b] = NONE;
  s.progress[b] = 0;
  s.lastAction[b] = -1;
  s.lastObj[b] = NONE;
}

function placeTarget(rng: Rng, s: TextHouseState, b: number, nRec: number, dest: number, appliance: number, lampRec: number, cfg: HorizonConfig): number {
  const wantClosed = rng.bernoulli(cfg.closedTargetProb) ? 1 : 0;
  let n = 0;
  let nAny = 0;
  for (let r = 0; r < nRec; r++) {
    if (r === dest || r === appliance || r === lampRec) continue;
    nAny++;
    if (REC_OPENABLE[s.recType[b * s.R + r]] === wantClosed) candidates[n++] = r;
  }
  if (n > 0) return candidates[rng.nextInt(n)];
  // No receptacle of the wanted kind: any allowed one (there always is one: layouts have ≥ 3).
  let i = rng.nextInt(nAny);
  for (let r = 0; r < nRec; r++) {
    if (r === dest || r === appliance || r === lampRec) continue;
    if (i-- === 0) return r;
  }
  return HELD; // unreachable
}

function placeDistractor(rng: Rng, s: TextHouseState, b: number, nRec: number, type: number): number {
  const homes = OBJ_HOMES[type];
  let n = 0;
  for (let r = 0; r < nRec; r++) if (homes.includes(s.recType[b * s.R + r])) candidates[n++] = r;
  return n > 0 ? candidates[rng.nextInt(n)] : rng.nextInt(nRec);
}
