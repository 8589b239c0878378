/**
 * GridHouse transitions: what each of the eight candidate actions can do in a state (the admissibility
 * mask, the class of each faced cell and each interaction's effect), and applying one. Milestones and
 * features are not handled here.
 *
 * An interaction does whatever the adjacent cell affords: take from a receptacle (its lowest-numbered
 * object, so the task object in slot 0 is reachable under any pile of distractors), put on it, heat /
 * cool / clean the held object with an appliance, open a closed door, unlock the locked one with the key.
 */
import {
  CELL_APPLIANCE,
  CELL_CLOSED_DOOR,
  CELL_FLOOR,
  CELL_LOCKED_DOOR,
  CELL_OPEN_DOOR,
  CELL_RECEPTACLE,
  CELL_WALL,
  DOOR_CLOSED,
  DOOR_OPEN,
  EFFECT_CLEAN,
  EFFECT_COOL,
  EFFECT_HEAT,
  EFFECT_NONE,
  EFFECT_OPEN,
  EFFECT_PUT,
  EFFECT_TAKE,
  EFFECT_UNLOCK,
  FLAG_CLEAN,
  FLAG_COLD,
  FLAG_HOT,
  INTERACT,
  MAX_CELLS,
  MAX_DOORS,
  MAX_FURNITURE,
  MAX_OBJECTS,
  NUM_ACTIONS,
  TABLE,
  TILE_DOOR,
  TILE_FLOOR,
  TILE_FURNITURE,
} from './catalog.ts';
import { LOC_CARRIED, LOC_GONE, type GridHouseState } from './state.ts';

/** Flag each appliance kind sets and the effect of using it (microwave, fridge, sink). */
const APPLIANCE_FLAG = [FLAG_HOT, FLAG_COLD, FLAG_CLEAN] as const;
const APPLIANCE_EFFECT = [EFFECT_HEAT, EFFECT_COOL, EFFECT_CLEAN] as const;

/** Rewrites episode b's faced cell classes, interaction effects and mask row (NUM_ACTIONS entries). */
export function writeAffordances(st: GridHouseState, mask: Uint8Array, b: number): void {
  const L = st.layouts;
  const s = st.slot[b];
  const cellBase = s * MAX_CELLS;
  const here = st.agent[b];
  const held = st.carried[b];
  const holdsKey = st.holdsKey(b);
  const holdsThing = held >= 0 && !holdsKey;
  const heldFlags = holdsThing ? st.objectFlags[b * MAX_OBJECTS + held] : 0;
  const mBase = b * NUM_ACTIONS;
  for (let dir = 0; dir < 4; dir++) {
    const nb = st.neighbour(b, here, dir);
    const tile = L.tile[cellBase + nb];
    const ref = L.cellRef[cellBase + nb];
    let cls = CELL_WALL;
    let walkable = false;
    let effect = EFFECT_NONE;
    if (tile === TILE_FLOOR) {
      cls = CELL_FLOOR;
      walkable = true;
    } else if (tile === TILE_DOOR) {
      const state = st.doorState[b * MAX_DOORS + ref];
      if (state === DOOR_OPEN) {
        cls = CELL_OPEN_DOOR;
        walkable = true;
      } else if (state === DOOR_CLOSED) {
        cls = CELL_CLOSED_DOOR;
        effect = EFFECT_OPEN;
      } else {
        cls = CELL_LOCKED_DOOR;
        if (holdsKey && ref === L.keyDoor[s]) effect = EFFECT_UNLOCK;
      }
    } else if (tile === TILE_FURNITURE) {
      const kind = L.furnitureKind[s * MAX_FURNITURE + ref];
      if (kind < TABLE) {
        cls = CELL_APPLIANCE;
        // Admissible only when it changes something: heating a hot apple is not an action.
        if (holdsThing && (heldFlags & APPLIANCE_FLAG[kind]) === 0) effect = APPLIANCE_EFFECT[kind];
      } else {
        cls = CELL_RECEPTACLE;
        if (holdsThing) effect = EFFECT_PUT;
        else if (held < 0 && st.furnitureLoad[b * MAX_FURNITURE + ref] > 0) effect = EFFECT_TAKE;
      }
    }
    st.faced[b * 4 + dir] = cls;
    mask[mBase + dir] = walkable ? 1 : 0;
    mask[mBase + INTERACT + dir] = effect !== EFFECT_NONE ? 1 : 0;
    st.effect[mBase + INTERACT + dir] = effect;
  }
}

/** Applies admissible action a of episode b (the caller checked it against the mask of writeAffordances). */
export function applyAction(st: GridHouseState, b: number, a: number): void {
  const cell = st.neighbour(b, st.agent[b], a & 3);
  if (a < INTERACT) {
    st.agent[b] = cell;
    return;
  }
  const L = st.layouts;
  const s = st.slot[b];
  const ref = L.cellRef[s * MAX_CELLS + cell];
  const held = st.carried[b];
  switch (st.effect[b * NUM_ACTIONS + a]) {
    case EFFECT_OPEN:
      st.doorState[b * MAX_DOORS + ref] = DOOR_OPEN;
      break;
    case EFFECT_UNLOCK:
      // The key stays in the lock: hands are free again for the rest of the task.
      st.doorState[b * MAX_DOORS + ref] = DOOR_OPEN;
      st.objectLoc[b * MAX_OBJECTS + held] = LOC_GONE;
      st.carried[b] = -1;
      break;
    case EFFECT_HEAT: {
      const i = b * MAX_OBJECTS + held;
      st.objectFlags[i] = (st.objectFlags[i] & ~FLAG_COLD) | FLAG_HOT;
      break;
    }
    case EFFECT_COOL: {
      const i = b * MAX_OBJECTS + held;
      st.objectFlags[i] = (st.objectFlags[i] & ~FLAG_HOT) | FLAG_COLD;
      break;
    }
    case EFFECT_CLEAN:
      st.objectFlags[b * MAX_OBJECTS + held] |= FLAG_CLEAN;
      break;
    case EFFECT_PUT:
      st.objectLoc[b * MAX_OBJECTS + held] = ref;
      st.furnitureLoad[b * MAX_FURNITURE + ref]++;
      st.carried[b] = -1;
      break;
    case EFFECT_TAKE: {
      // Lowest-numbered object on the receptacle: the task object first, then the key.
      const no = L.numObjects[s];
      for (let o = 0; o < no; o++) {
        if (st.objectLoc[b * MAX_OBJECTS + o] === ref) {
          st.objectLoc[b * MAX_OBJECTS + o] = LOC_CARRIED;
          st.furnitureLoad[b * MAX_FURNITURE + ref]--;
          st.carried[b] = o;
          break;
        }
      }
      break;
    }
  }
}
