/**
 * The TextHouse milestone detector Φ (docs/maths.md §2): after each step, it checks the environment's own
 * state for the task's next milestone only, so milestones complete in task order and each at most once.
 *
 * Each kind's predicate needs one more action than the predicate before it in every family's list
 * (targets never start at the destination, the appliance or the lamp; one hand carries one object), so
 * a milestone never fires "passively" on a step that did nothing towards it. The last milestone of every
 * family is its goal condition, so success is exactly "all milestones completed".
 *
 * Two other detectors for the detector settings (docs/maths.md §6): the loose one (`looseSideEffect`),
 * which a policy can game, and the fine one (`fineTransition`): going to the receptacle where a wanted
 * target lies (before it is in view), or to the destination with a target in hand (before it is put).
 */
import { NONE, START, S_CLEAN, S_COOL, S_HEAT, S_OPEN, S_PUT, S_USE, type TextHouseState } from './state.ts';
import { FAMILY_FLAG, M_BRING, M_FIND, M_FIND2, M_LIGHT, M_PLACE, M_PLACE2, M_PROCESS, M_TAKE, M_TAKE2 } from './vocabulary.ts';

/** True if target object o still has to be picked up: it is not lying, finished, at the destination. */
export function needsTaking(s: TextHouseState, b: number, o: number): boolean {
  const i = b * s.O + o;
  if (!s.objIsTarget[i]) return false;
  const dest = s.dest[b];
  if (dest === NONE || s.objLoc[i] !== dest) return true;
  const flag = FAMILY_FLAG[s.family[b]];
  return flag !== 0 && (s.objFlags[i] & flag) === 0;
}

/** A target that still has to be picked up lies in view: at the agent's receptacle, which is open. */
export function wantedInView(s: TextHouseState, b: number): boolean {
  const loc = s.loc[b];
  if (loc === START || s.recClosed[b * s.R + loc]) return false;
  const t0 = s.target0[b];
  const t1 = s.target1[b];
  return (s.objLoc[b * s.O + t0] === loc && needsTaking(s, b, t0)) || (t1 !== NONE && s.objLoc[b * s.O + t1] === loc && needsTaking(s, b, t1));
}

/** Number of targets lying finished at the destination. */
export function targetsPlaced(s: TextHouseState, b: number): number {
  const t0 = s.target0[b];
  const t1 = s.target1[b];
  let n = 0;
  if (!needsTaking(s, b, t0)) n++;
  if (t1 !== NONE && !needsTaking(s, b, t1)) n++;
  return n;
}

function holdingTarget(s: TextHouseState, b: number): boolean {
  const h = s.held[b];
  return h !== NONE && s.objIsTarget[b * s.O + h] === 1;
}

/** Φ for one milestone kind, evaluated on episode b's state just after a step. */
export function milestoneHolds(s: TextHouseState, b: number, kind: number): boolean {
  switch (kind) {
    case M_FIND:
      return wantedInView(s, b);
    case M_FIND2:
      return wantedInView(s, b) && targetsPlaced(s, b) >= 1;
    case M_TAKE:
      return holdingTarget(s, b);
    case M_BRING:
      return holdingTarget(s, b) && s.loc[b] === s.appliance[b];
    case M_PROCESS:
      return holdingTarget(s, b) && (s.objFlags[b * s.O + s.held[b]] & FAMILY_FLAG[s.family[b]]) !== 0;
    case M_LIGHT:
      return holdingTarget(s, b) && s.lastAction[b] === s.fixedBase + S_USE;
    case M_PLACE:
      return targetsPlaced(s, b) >= 1;
    case M_TAKE2:
      return holdingTarget(s, b) && targetsPlaced(s, b) >= 1;
    case M_PLACE2:
      return targetsPlaced(s, b) >= 2;
    default:
      return false;
  }
}

/**
 * Short names of milestone kinds for text ("take the apple"); `obj` is the target's type name, `dest` the
 * destination with its preposition ("in the fridge"), `verb` the family's processing verb.
 */
export function milestoneName(kind: number, obj: string, appliance: string, dest: string, verb: string): string {
  switch (kind) {
    case M_FIND:
      return `find the ${obj}`;
    case M_TAKE:
      return `take the ${obj}`;
    case M_BRING:
      return `bring the ${obj} to the ${appliance}`;
    case M_PROCESS:
      return `${verb} the ${obj} with the ${appliance}`;
    case M_LIGHT:
      return `look at the ${obj} under the ${appliance}`;
    case M_PLACE:
      return `put the ${obj} ${dest}`;
    case M_FIND2:
      return `find the other ${obj}`;
    case M_TAKE2:
      return `take the other ${obj}`;
    case M_PLACE2:
      return `put the other ${obj} ${dest}`;
    default:
      return `milestone ${kind}`;
  }
}

/** Fixed commands whose side effect is of a milestone's kind: open, put, heat, cool, clean, use the lamp. */
const LOOSE_COMMANDS = new Set([S_OPEN, S_PUT, S_HEAT, S_COOL, S_CLEAN, S_USE]);

/**
 * The loose detector: command `a` (just applied) had a side effect of a milestone's kind, whatever its
 * object or place: any object taken, any receptacle opened, any object put down, treated, or looked at
 * under the lamp. Take and put back, and it fires twice.
 */
export function looseSideEffect(s: TextHouseState, a: number): boolean {
  if (a < s.R) return false; // going somewhere
  if (a < s.R + s.O) return true; // taking an object
  return LOOSE_COMMANDS.has(a - s.fixedBase);
}

/**
 * The fine detector's intermediate transition for the stage of milestone kind `kind`, after command
 * `a`: finding a target, the agent went to the receptacle where one still to be taken lies (closed or
 * not: the find milestone itself needs it in view); placing one, the agent went to the destination
 * holding it. The episode book reports the first one of each stage (episode-book.ts).
 */
export function fineTransition(s: TextHouseState, b: number, a: number, kind: number): boolean {
  if (a >= s.R) return false;
  switch (kind) {
    case M_FIND:
    case M_FIND2: {
      const t0 = s.target0[b];
      const t1 = s.target1[b];
      const lies = (t: number) => t !== NONE && s.objLoc[b * s.O + t] === a && needsTaking(s, b, t);
      return lies(t0) || lies(t1);
    }
    case M_PLACE:
    case M_PLACE2:
      return a === s.dest[b] && holdingTarget(s, b);
    default:
      return false;
  }
}
