/**
 * TextHouse text, in ALFWorld's phrasing: the task sentence, the observation that followed the last
 * command ("You arrive at countertop 1. On the countertop 1, you see an apple 1 and a knife 1."), each
 * command slot as a command, and milestone names. Built from the state only when asked for; never called
 * in the training hot path, so it allocates freely.
 */
import { milestoneName } from './milestones.ts';
import { HELD, NONE, S_CLEAN, S_CLOSE, S_COOL, S_EXAMINE, S_HEAT, S_INVENTORY, S_LOOK, S_OPEN, S_PUT, S_USE, START, type TextHouseState } from './state.ts';
import { F_CLEAN, F_COOL, F_HEAT, F_LIGHT, F_PICK, F_PICKTWO, OBJ_NAMES, REC_IN, REC_NAMES, REC_OPENABLE } from './vocabulary.ts';

const LAMP = 'desklamp 1';

function article(name: string): string {
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/** "nothing", "an apple 1", "an apple 1 and a knife 1", "a, b, and c". */
function list(names: string[]): string {
  const xs = names.map(article);
  if (xs.length === 0) return 'nothing';
  if (xs.length === 1) return xs[0];
  if (xs.length === 2) return `${xs[0]} and ${xs[1]}`;
  return `${xs.slice(0, -1).join(', ')}, and ${xs[xs.length - 1]}`;
}

function recName(s: TextHouseState, b: number, r: number): string {
  return `${REC_NAMES[s.recType[b * s.R + r]]} ${s.recNum[b * s.R + r]}`;
}

function objName(s: TextHouseState, b: number, o: number): string {
  return `${OBJ_NAMES[s.objType[b * s.O + o]]} ${s.objNum[b * s.O + o]}`;
}

function prep(s: TextHouseState, b: number, r: number): string {
  return REC_IN[s.recType[b * s.R + r]] ? 'in' : 'on';
}

/** A receptacle as the task names it: by type alone when the layout has only one of that type. */
function taskRecName(s: TextHouseState, b: number, r: number): string {
  const type = s.recType[b * s.R + r];
  let count = 0;
  for (let i = 0; i < s.nRec[b]; i++) if (s.recType[b * s.R + i] === type) count++;
  return count === 1 ? REC_NAMES[type] : recName(s, b, r);
}

/** What the agent sees of receptacle r. */
function contents(s: TextHouseState, b: number, r: number): string {
  const name = recName(s, b, r);
  if (s.recClosed[b * s.R + r]) return `The ${name} is closed.`;
  const things: string[] = [];
  for (let o = 0; o < s.nObj[b]; o++) if (s.objLoc[b * s.O + o] === r) things.push(objName(s, b, o));
  if (r === s.lampRec[b]) things.push(LAMP);
  if (REC_OPENABLE[s.recType[b * s.R + r]]) return `The ${name} is open. In it, you see ${list(things)}.`;
  return `On the ${name}, you see ${list(things)}.`;
}

function roomOverview(s: TextHouseState, b: number): string {
  const recs: string[] = [];
  for (let r = 0; r < s.nRec[b]; r++) recs.push(recName(s, b, r));
  return `You are in the middle of a room. Looking quickly around you, you see ${list(recs)}.`;
}

export function describeTask(s: TextHouseState, b: number): string {
  const obj = OBJ_NAMES[s.targetType[b]];
  const family = s.family[b];
  if (family === F_LIGHT) return `look at ${obj} under the desklamp.`;
  const dest = s.dest[b];
  const where = `${prep(s, b, dest)} ${taskRecName(s, b, dest)}`;
  switch (family) {
    case F_PICK:
      return `put some ${obj} ${where}.`;
    case F_PICKTWO:
      return `find two ${obj} and put them ${where}.`;
    case F_CLEAN:
      return `clean some ${obj} and put it ${where}.`;
    case F_HEAT:
      return `heat some ${obj} and put it ${where}.`;
    case F_COOL:
      return `cool some ${obj} and put it ${where}.`;
    default:
      return `family ${family}`;
  }
}

export function describeObservation(s: TextHouseState, b: number): string {
  const a = s.lastAction[b];
  const loc = s.loc[b];
  const { R, O } = s;
  if (a < 0) return roomOverview(s, b);
  if (a < R) return `You arrive at ${recName(s, b, loc)}. ${contents(s, b, loc)}`;
  if (a < R + O) return `You pick up the ${objName(s, b, a - R)} from the ${recName(s, b, loc)}.`;
  const here = loc === START ? '' : recName(s, b, loc);
  const obj = s.lastObj[b] === NONE ? '' : objName(s, b, s.lastObj[b]);
  switch (a - s.fixedBase) {
    case S_OPEN:
      return `You open the ${here}. ${contents(s, b, loc)}`;
    case S_CLOSE:
      return `You close the ${here}.`;
    case S_PUT:
      return `You put the ${obj} ${prep(s, b, loc)} the ${here}.`;
    case S_HEAT:
      return `You heat the ${obj} using the ${here}.`;
    case S_COOL:
      return `You cool the ${obj} using the ${here}.`;
    case S_CLEAN:
      return `You clean the ${obj} using the ${here}.`;
    case S_USE:
      return `You turn on the ${LAMP}.`;
    case S_LOOK:
      return loc === START ? roomOverview(s, b) : `You are facing the ${here}. Next to it, you see nothing.`;
    case S_INVENTORY:
      return s.held[b] === NONE ? 'You are not carrying anything.' : `You are carrying: ${article(objName(s, b, s.held[b]))}.`;
    case S_EXAMINE:
      return contents(s, b, loc);
    default:
      return '';
  }
}

export function describeAction(s: TextHouseState, b: number, a: number): string {
  const { R, O } = s;
  const loc = s.loc[b];
  const here = loc === START ? 'nothing' : recName(s, b, loc);
  const held = s.held[b] === NONE ? 'nothing' : objName(s, b, s.held[b]);
  if (a < R) return a < s.nRec[b] ? `go to ${recName(s, b, a)}` : '(unused slot)';
  if (a < R + O) {
    const o = a - R;
    if (o >= s.nObj[b]) return '(unused slot)';
    const where = s.objLoc[b * O + o];
    return `take ${objName(s, b, o)} from ${where === HELD ? 'your hands' : recName(s, b, where)}`;
  }
  switch (a - s.fixedBase) {
    case S_OPEN:
      return `open ${here}`;
    case S_CLOSE:
      return `close ${here}`;
    case S_PUT:
      return `put ${held} ${loc === START ? 'in/on' : prep(s, b, loc)} ${here}`;
    case S_HEAT:
      return `heat ${held} with ${here}`;
    case S_COOL:
      return `cool ${held} with ${here}`;
    case S_CLEAN:
      return `clean ${held} with ${here}`;
    case S_USE:
      return `use ${LAMP}`;
    case S_LOOK:
      return 'look';
    case S_INVENTORY:
      return 'inventory';
    case S_EXAMINE:
      return `examine ${here}`;
    default:
      return '(unused slot)';
  }
}

export function describeMilestones(s: TextHouseState, b: number): string[] {
  const obj = OBJ_NAMES[s.targetType[b]];
  const family = s.family[b];
  const appliance = family === F_LIGHT ? 'desklamp' : s.appliance[b] === NONE ? '' : REC_NAMES[s.recType[b * s.R + s.appliance[b]]];
  const dest = s.dest[b] === NONE ? '' : `${prep(s, b, s.dest[b])} the ${taskRecName(s, b, s.dest[b])}`;
  const verb = family === F_CLEAN ? 'clean' : family === F_COOL ? 'cool' : 'heat';
  const names: string[] = [];
  for (let k = 0; k < s.nMs[b]; k++) names.push(milestoneName(s.msKind[b * s.M + k], obj, appliance, dest, verb));
  return names;
}
