/**
 * TextHouse oracle: a planner that knows where everything is and picks the next command of a shortest
 * plan from any state (so it can also take over mid-episode): put down a non-target object; otherwise
 * fetch a target that still needs taking, opening its container if closed; carry it to the appliance
 * and process it, or to the lamp and use it; then to the destination, opening it if closed, and put it.
 * Its plan is at most 2·(go, open, take) + appliance + 2·(go, open, put) commands long, well inside
 * every horizon's step limit.
 */
import { needsTaking } from './milestones.ts';
import { NONE, S_CLEAN, S_COOL, S_HEAT, S_OPEN, S_PUT, S_USE, START, type TextHouseState } from './state.ts';
import { F_CLEAN, F_COOL, F_LIGHT, FAMILY_FLAG } from './vocabulary.ts';

/** Slot of the oracle's next command for live episode b. */
export function oracleAction(s: TextHouseState, b: number): number {
  const { R, O } = s;
  const fb = s.fixedBase;
  const loc = s.loc[b];
  const held = s.held[b];
  const family = s.family[b];
  const closedHere = loc !== START && s.recClosed[b * R + loc] === 1;

  if (held !== NONE) {
    if (!s.objIsTarget[b * O + held]) {
      // Hands full of the wrong thing: put it down right here (or at the first receptacle).
      if (loc === START) return 0;
      return closedHere ? fb + S_OPEN : fb + S_PUT;
    }
    const flag = FAMILY_FLAG[family];
    if (flag !== 0 && (s.objFlags[b * O + held] & flag) === 0) {
      const appliance = s.appliance[b];
      if (loc !== appliance) return appliance;
      return fb + (family === F_CLEAN ? S_CLEAN : family === F_COOL ? S_COOL : S_HEAT);
    }
    if (family === F_LIGHT) {
      const lamp = s.lampRec[b];
      return loc !== lamp ? lamp : fb + S_USE;
    }
    const dest = s.dest[b];
    if (loc !== dest) return dest;
    return closedHere ? fb + S_OPEN : fb + S_PUT;
  }

  const t0 = s.target0[b];
  const o = needsTaking(s, b, t0) ? t0 : s.target1[b];
  const where = s.objLoc[b * O + o];
  if (loc !== where) return where;
  return closedHere ? fb + S_OPEN : R + o;
}
