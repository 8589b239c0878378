/**
 * GridHouse oracle: a planner that knows the whole house and picks the next action of a shortest plan
 * from any state, so it can also take over mid-episode. It first chooses the landmark the next sub-goal
 * needs (a furniture piece or a door) and the interaction wanted there: park an unneeded object, unlock
 * with the key, fetch the task object (opening or unlocking the way first), treat it, put it on its
 * destination. Then it walks the landmark's distance field (layout.ts) and interacts once beside it.
 * Computed only when asked for; nothing the policy sees is derived from it.
 */
import {
  DOOR_CLOSED,
  EFFECT_CLEAN,
  EFFECT_COOL,
  EFFECT_HEAT,
  EFFECT_NONE,
  EFFECT_OPEN,
  EFFECT_PUT,
  EFFECT_TAKE,
  EFFECT_UNLOCK,
  INTERACT,
  MAX_CELLS,
  MAX_DOORS,
  MAX_FURNITURE,
  MAX_LANDMARKS,
  MAX_OBJECTS,
  NUM_ACTIONS,
  OBJECT_KEY,
  TABLE,
  TASK_OBJECT,
  TREATMENT_FLAG,
  TREAT_NONE,
} from './catalog.ts';
import type { GridHouseState } from './state.ts';

const TREATMENT_EFFECT = [EFFECT_NONE, EFFECT_HEAT, EFFECT_COOL, EFFECT_CLEAN] as const;
/** A target packs the landmark and the wanted interaction into one integer: landmark · EFFECT_BITS + effect. */
const EFFECT_BITS = 8;
/** No target: the task is solved. */
export const NO_TARGET = -1;

export const targetLandmark = (target: number): number => Math.floor(target / EFFECT_BITS);
const targetEffect = (target: number): number => target % EFFECT_BITS;
const pack = (landmark: number, effect: number): number => landmark * EFFECT_BITS + effect;

/**
 * The landmark the next sub-goal needs (furniture f, or MAX_FURNITURE + door d) and the interaction it
 * wants there, packed (targetLandmark / targetEffect), or NO_TARGET once the task is solved.
 */
export function oracleTarget(st: GridHouseState, b: number): number {
  const L = st.layouts;
  const s = st.slot[b];
  const held = st.carried[b];
  const agentRoom = L.cellRoom[s * MAX_CELLS + st.agent[b]];
  if (st.progress[b] === L.numMilestones[s]) return NO_TARGET;
  if (held >= 0 && L.objectKind[s * MAX_OBJECTS + held] === OBJECT_KEY) return pack(MAX_FURNITURE + L.keyDoor[s], EFFECT_UNLOCK);
  if (held > 0) {
    // Something the task does not need: park it on the nearest receptacle within reach.
    const distBase = s * MAX_LANDMARKS * MAX_CELLS + st.agent[b];
    let best = -1;
    let bestDist = 256;
    const nf = L.numFurniture[s];
    for (let f = 0; f < nf; f++) {
      if (L.furnitureKind[s * MAX_FURNITURE + f] < TABLE || st.shutDoorBetween(b, agentRoom, L.furnitureRoom[s * MAX_FURNITURE + f]) >= 0) continue;
      const d = L.dist[distBase + f * MAX_CELLS];
      if (d < bestDist) {
        bestDist = d;
        best = f;
      }
    }
    return best < 0 ? NO_TARGET : pack(best, EFFECT_PUT);
  }
  const t = L.treatment[s];
  if (held === TASK_OBJECT) {
    if (t !== TREAT_NONE && (st.objectFlags[b * MAX_OBJECTS + TASK_OBJECT] & TREATMENT_FLAG[t]) === 0) return pack(L.appliance[s], TREATMENT_EFFECT[t]);
    return pack(L.destination[s], EFFECT_PUT);
  }
  // Empty hands: fetch the task object, or first open the way to it.
  const where = st.objectLoc[b * MAX_OBJECTS + TASK_OBJECT];
  const door = st.shutDoorBetween(b, agentRoom, L.furnitureRoom[s * MAX_FURNITURE + where]);
  if (door < 0) return pack(where, EFFECT_TAKE);
  if (st.doorState[b * MAX_DOORS + door] === DOOR_CLOSED) return pack(MAX_FURNITURE + door, EFFECT_OPEN);
  // Locked: the key lies on the near side (generator), on a receptacle (keys are never put down).
  return pack(st.objectLoc[b * MAX_OBJECTS + 1], EFFECT_TAKE);
}

/** Cell of landmark l (furniture f or MAX_FURNITURE + door d) in episode b's house. */
export function landmarkCell(st: GridHouseState, b: number, l: number): number {
  const L = st.layouts;
  const s = st.slot[b];
  return l >= MAX_FURNITURE ? L.doorCell[s * MAX_DOORS + l - MAX_FURNITURE] : L.furnitureCell[s * MAX_FURNITURE + l];
}

/**
 * The oracle's action for live episode b (mask and effects as writeAffordances left them): the first
 * move (N, E, S, W) that shortens the walk to the target landmark, or, beside it, the interaction with it.
 */
export function oracleAction(st: GridHouseState, mask: Uint8Array, b: number): number {
  const target = oracleTarget(st, b);
  if (target === NO_TARGET) return -1;
  const L = st.layouts;
  const s = st.slot[b];
  const landmark = targetLandmark(target);
  const distBase = (s * MAX_LANDMARKS + landmark) * MAX_CELLS;
  const here = st.agent[b];
  const dHere = L.dist[distBase + here];
  const mBase = b * NUM_ACTIONS;
  if (dHere > 0) {
    for (let dir = 0; dir < 4; dir++) if (mask[mBase + dir] === 1 && L.dist[distBase + st.neighbour(b, here, dir)] < dHere) return dir;
    return -1;
  }
  const cell = landmarkCell(st, b, landmark);
  const effect = targetEffect(target);
  for (let dir = 0; dir < 4; dir++) {
    if (st.neighbour(b, here, dir) === cell && mask[mBase + INTERACT + dir] === 1 && st.effect[mBase + INTERACT + dir] === effect) return INTERACT + dir;
  }
  return -1;
}
