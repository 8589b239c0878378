/**
 * The GridHouse milestone detector Φ (docs/maths.md §2): after each step it tests the task's next
 * milestone only, against the state after the step, so milestones complete in task order and each at
 * most once. The generator builds tasks so that the next milestone's condition can only become true
 * through the action that completes it (the key is taken before its door, the object is treated before
 * it is placed), so Φ never fires on a step that did nothing towards it.
 *
 * Two other detectors for the detector settings (docs/maths.md §6): the loose one (`looseSideEffect`),
 * which a policy can game, and the fine one (`fineTransition`), with one intermediate transition per
 * stage: entering the room that holds the next milestone's target.
 */
import {
  DOOR_OPEN,
  EFFECT_NONE,
  MAX_CELLS,
  MAX_FURNITURE,
  MAX_DOORS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  MS_OPEN,
  MS_PLACE,
  MS_TAKE_KEY,
  MS_TAKE_OBJECT,
  MS_TREAT,
  MS_UNLOCK,
  OBJECT_KEY,
  TASK_OBJECT,
  TREATMENT_APPLIANCE,
  TREATMENT_FLAG,
  TREAT_NONE,
} from './catalog.ts';
import { LOC_CARRIED, LOC_GONE, type GridHouseState } from './state.ts';

/** Whether the condition of episode b's next milestone (task order index progress[b]) holds now. */
export function nextMilestoneHolds(st: GridHouseState, b: number): boolean {
  const L = st.layouts;
  const s = st.slot[b];
  const m = s * MAX_MILESTONES + st.progress[b];
  switch (L.milestoneKind[m]) {
    case MS_TAKE_KEY:
      return st.holdsKey(b);
    case MS_UNLOCK:
    case MS_OPEN:
      return st.doorState[b * MAX_DOORS + L.milestoneArg[m]] === DOOR_OPEN;
    case MS_TAKE_OBJECT:
      return st.carried[b] === TASK_OBJECT;
    case MS_TREAT:
      return (st.objectFlags[b * MAX_OBJECTS + TASK_OBJECT] & TREATMENT_FLAG[L.treatment[s]]) !== 0;
    case MS_PLACE: {
      const t = L.treatment[s];
      const flags = st.objectFlags[b * MAX_OBJECTS + TASK_OBJECT];
      return st.objectLoc[b * MAX_OBJECTS + TASK_OBJECT] === L.destination[s] && (t === TREAT_NONE || (flags & TREATMENT_FLAG[t]) !== 0);
    }
  }
  return false;
}

/**
 * The loose detector: the step had a side effect of a milestone's kind, whatever its target: any key
 * or object taken, any door opened or unlocked, any object treated or put down. Every interaction of
 * GridHouse is of one of these kinds, so it fires on every interaction: take and put back, and it fires
 * twice. `effect`: the EFFECT_* of the action taken, read before the step (transitions.ts).
 */
export function looseSideEffect(effect: number): boolean {
  return effect !== EFFECT_NONE;
}

/** Room of episode b's furniture f. */
const roomOfFurniture = (st: GridHouseState, b: number, f: number): number => st.layouts.furnitureRoom[st.slot[b] * MAX_FURNITURE + f];

/**
 * The room that holds the target of episode b's next milestone: the key's or the task object's
 * receptacle, the door's near side (door d joins room d to room d + 1), the appliance of the treatment,
 * the destination; −1 when the target is not on a receptacle (in hand, or the task is done).
 */
export function nextTargetRoom(st: GridHouseState, b: number): number {
  const L = st.layouts;
  const s = st.slot[b];
  if (st.progress[b] >= st.numMilestones[b]) return -1;
  const m = s * MAX_MILESTONES + st.progress[b];
  const onFurniture = (o: number) => {
    const loc = st.objectLoc[b * MAX_OBJECTS + o];
    return loc === LOC_CARRIED || loc === LOC_GONE ? -1 : roomOfFurniture(st, b, loc);
  };
  switch (L.milestoneKind[m]) {
    case MS_TAKE_KEY:
      for (let o = 0; o < L.numObjects[s]; o++) if (L.objectKind[s * MAX_OBJECTS + o] === OBJECT_KEY) return onFurniture(o);
      return -1;
    case MS_UNLOCK:
    case MS_OPEN:
      return L.milestoneArg[m];
    case MS_TAKE_OBJECT:
      return onFurniture(TASK_OBJECT);
    case MS_TREAT: {
      const kind = TREATMENT_APPLIANCE[L.treatment[s]];
      for (let f = 0; f < L.numFurniture[s]; f++) if (L.furnitureKind[s * MAX_FURNITURE + f] === kind) return roomOfFurniture(st, b, f);
      return -1;
    }
    case MS_PLACE:
      return roomOfFurniture(st, b, L.destination[s]);
  }
  return -1;
}

/** Room of the agent of episode b (a door cell counts as room d, layout.ts `cellRoom`). */
export function agentRoom(st: GridHouseState, b: number): number {
  return st.layouts.cellRoom[st.slot[b] * MAX_CELLS + st.agent[b]];
}

/**
 * The fine detector's intermediate transition, read after the step: the agent entered (from another
 * room) the room that holds the next milestone's target. `roomBefore`: the agent's room before the step.
 * The episode book reports the first one of each stage (episode-book.ts).
 */
export function fineTransition(st: GridHouseState, b: number, roomBefore: number): boolean {
  const room = agentRoom(st, b);
  return room !== roomBefore && room === nextTargetRoom(st, b);
}
