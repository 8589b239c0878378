/**
 * The GridHouse milestone detector Φ (docs/maths.md §2): after each step it tests the task's next
 * milestone only, against the state after the step, so milestones complete in task order and each at
 * most once. The generator builds tasks so that the next milestone's condition can only become true
 * through the action that completes it (the key is taken before its door, the object is treated before
 * it is placed), so Φ never fires on a step that did nothing towards it.
 */
import {
  DOOR_OPEN,
  MAX_DOORS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  MS_OPEN,
  MS_PLACE,
  MS_TAKE_KEY,
  MS_TAKE_OBJECT,
  MS_TREAT,
  MS_UNLOCK,
  TASK_OBJECT,
  TREATMENT_FLAG,
  TREAT_NONE,
} from './catalog.ts';
import type { GridHouseState } from './state.ts';

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
