/**
 * GridHouse as text and as a drawing snapshot: task sentence, milestone names, observation (a short
 * description plus an ASCII map), action commands and GridFrame. Built only when asked for; it reads the
 * environment's typed arrays and never runs in the training hot path.
 */
import type { GridFrame } from '../types.ts';
import {
  DIRECTION_NAMES,
  DOOR_CLOSED,
  DOOR_LOCKED,
  DOOR_OPEN,
  EFFECT_CLEAN,
  EFFECT_COOL,
  EFFECT_HEAT,
  EFFECT_OPEN,
  EFFECT_PUT,
  EFFECT_TAKE,
  EFFECT_UNLOCK,
  FLAG_CLEAN,
  FLAG_COLD,
  FLAG_HOT,
  FURNITURE_GLYPHS,
  FURNITURE_NAMES,
  INTERACT,
  KEY_COLOURS,
  MAX_CELLS,
  MAX_DOORS,
  MAX_FURNITURE,
  MAX_LANDMARKS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  MAX_ROOMS,
  MS_OPEN,
  MS_PLACE,
  MS_TAKE_KEY,
  MS_TAKE_OBJECT,
  MS_TREAT,
  MS_UNLOCK,
  NUM_ACTIONS,
  OBJECT_KEY,
  OBJECT_NAMES,
  ROOM_NAMES,
  TABLE,
  TASK_OBJECT,
  TILE_DOOR,
  TILE_FLOOR,
  TILE_FURNITURE,
  TREATMENT_ADJECTIVES,
  TREATMENT_VERBS,
  TREAT_NONE,
} from './catalog.ts';
import type { GridHouse } from './gridhouse.ts';

const LEGEND = `@ you  # wall  . floor  + open door  D closed door  L locked door  ${Array.from(FURNITURE_GLYPHS, (g, k) => `${g} ${FURNITURE_NAMES[k]}`).join('  ')}`;

function roomName(env: GridHouse, b: number, room: number): string {
  return ROOM_NAMES[env.layouts.roomName[env.slot[b] * MAX_ROOMS + room]];
}

function furnitureName(env: GridHouse, b: number, f: number): string {
  return FURNITURE_NAMES[env.layouts.furnitureKind[env.slot[b] * MAX_FURNITURE + f]];
}

function keyColour(env: GridHouse, b: number): string {
  return KEY_COLOURS[env.layouts.keyColour[env.slot[b]]];
}

/** "red key", "hot apple", "clean mug": an object with its current state. */
export function objectLabel(env: GridHouse, b: number, o: number): string {
  const kind = env.layouts.objectKind[env.slot[b] * MAX_OBJECTS + o];
  if (kind === OBJECT_KEY) return `${keyColour(env, b)} key`;
  const flags = env.objectFlags[b * MAX_OBJECTS + o];
  const words: string[] = [];
  if (flags & FLAG_HOT) words.push('hot');
  if (flags & FLAG_COLD) words.push('cold');
  if (flags & FLAG_CLEAN) words.push('clean');
  words.push(OBJECT_NAMES[kind]);
  return words.join(' ');
}

function doorName(env: GridHouse, b: number, d: number): string {
  if (env.layouts.doorInitial[env.slot[b] * MAX_DOORS + d] === DOOR_LOCKED) return `the ${keyColour(env, b)} door`;
  return `the door to the ${roomName(env, b, d + 1)}`;
}

function milestoneName(env: GridHouse, b: number, k: number): string {
  const s = env.slot[b];
  const L = env.layouts;
  const m = s * MAX_MILESTONES + k;
  const object = OBJECT_NAMES[L.objectKind[s * MAX_OBJECTS + TASK_OBJECT]];
  const t = L.treatment[s];
  switch (L.milestoneKind[m]) {
    case MS_TAKE_KEY:
      return `take the ${keyColour(env, b)} key`;
    case MS_UNLOCK:
      return `unlock ${doorName(env, b, L.milestoneArg[m])}`;
    case MS_OPEN:
      return `open ${doorName(env, b, L.milestoneArg[m])}`;
    case MS_TAKE_OBJECT:
      return `take the ${object}`;
    case MS_TREAT:
      return `${TREATMENT_VERBS[t]} the ${object} with the ${furnitureName(env, b, L.appliance[s])}`;
    case MS_PLACE: {
      const adjective = t === TREAT_NONE ? '' : `${TREATMENT_ADJECTIVES[t]} `;
      return `put the ${adjective}${object} on the ${furnitureName(env, b, L.destination[s])}`;
    }
  }
  throw new Error(`unknown milestone kind ${L.milestoneKind[m]}`);
}

export function describeMilestones(env: GridHouse, b: number): string[] {
  const names: string[] = [];
  for (let k = 0; k < env.layouts.numMilestones[env.slot[b]]; k++) names.push(milestoneName(env, b, k));
  return names;
}

export function describeTask(env: GridHouse, b: number): string {
  const steps = describeMilestones(env, b);
  return steps.length === 1 ? steps[0] : `${steps.slice(0, -1).join(', ')}, then ${steps[steps.length - 1]}`;
}

/** Row strings of the house: walls, floor, doors by state, furniture glyphs, '@' for the agent. */
function asciiMap(env: GridHouse, b: number): string[] {
  const s = env.slot[b];
  const L = env.layouts;
  const W = L.width[s];
  const H = L.height[s];
  const rows: string[] = [];
  for (let y = 0; y < H; y++) {
    let row = '';
    for (let x = 0; x < W; x++) {
      const c = y * W + x;
      const tile = L.tile[s * MAX_CELLS + c];
      if (c === env.agent[b]) row += '@';
      else if (tile === TILE_FLOOR) row += '.';
      else if (tile === TILE_DOOR) row += doorGlyph(env.doorState[b * MAX_DOORS + L.cellRef[s * MAX_CELLS + c]]);
      else if (tile === TILE_FURNITURE) row += FURNITURE_GLYPHS[L.furnitureKind[s * MAX_FURNITURE + L.cellRef[s * MAX_CELLS + c]]];
      else row += '#';
    }
    rows.push(row);
  }
  return rows;
}

function doorGlyph(state: number): string {
  return state === DOOR_OPEN ? '+' : state === DOOR_CLOSED ? 'D' : 'L';
}

function contents(env: GridHouse, b: number, f: number): string[] {
  const names: string[] = [];
  for (let o = 0; o < env.layouts.numObjects[env.slot[b]]; o++) if (env.objectLoc[b * MAX_OBJECTS + o] === f) names.push(objectLabel(env, b, o));
  return names;
}

function carrying(env: GridHouse, b: number): string | null {
  const held = env.carried[b];
  return held < 0 ? null : objectLabel(env, b, held);
}

export function describeObservation(env: GridHouse, b: number): string {
  const s = env.slot[b];
  const L = env.layouts;
  const lines: string[] = [];
  const room = L.cellRoom[s * MAX_CELLS + env.agent[b]];
  const held = carrying(env, b);
  const where = L.numRooms[s] > 1 ? `in the ${roomName(env, b, room)} (room ${room + 1} of ${L.numRooms[s]})` : `in the ${roomName(env, b, room)}`;
  lines.push(`You are ${where}, carrying ${held === null ? 'nothing' : `a ${held}`}.`);
  const k = env.progress[b];
  const M = L.numMilestones[s];
  if (k >= M) {
    lines.push(`Task done: ${describeTask(env, b)}.`);
  } else {
    let next = `Next (${k + 1} of ${M}): ${milestoneName(env, b, k)}.`;
    const t = env.target[b];
    if (t >= 0) {
      const landmark = t >= MAX_FURNITURE ? doorName(env, b, t - MAX_FURNITURE) : `the ${furnitureName(env, b, t)}`;
      const d = L.dist[(s * MAX_LANDMARKS + t) * MAX_CELLS + env.agent[b]];
      next += d === 0 ? ` You are beside ${landmark}.` : ` Walk ${d} step${d === 1 ? '' : 's'} to ${landmark}.`;
    }
    lines.push(next);
  }
  const shelves: string[] = [];
  for (let f = 0; f < L.numFurniture[s]; f++) {
    if (L.furnitureKind[s * MAX_FURNITURE + f] < TABLE) continue;
    const items = contents(env, b, f);
    shelves.push(`the ${furnitureName(env, b, f)}: ${items.length === 0 ? 'nothing' : items.join(', ')}`);
  }
  lines.push(`On ${shelves.join('; ')}.`);
  lines.push(...asciiMap(env, b));
  lines.push(LEGEND);
  return lines.join('\n');
}

export function describeAction(env: GridHouse, b: number, a: number): string {
  const s = env.slot[b];
  const L = env.layouts;
  const dir = a & 3;
  const W = L.width[s];
  const here = env.agent[b];
  const nb = dir === 0 ? here - W : dir === 1 ? here + 1 : dir === 2 ? here + W : here - 1;
  const tile = L.tile[s * MAX_CELLS + nb];
  const ref = L.cellRef[s * MAX_CELLS + nb];
  const facing =
    tile === TILE_FLOOR ? 'floor' : tile === TILE_DOOR ? doorName(env, b, ref) : tile === TILE_FURNITURE ? `the ${furnitureName(env, b, ref)}` : 'a wall';
  const admissible = env.actionMask[b * NUM_ACTIONS + a] === 1;
  if (a < INTERACT) return admissible ? `move ${DIRECTION_NAMES[dir]}` : `move ${DIRECTION_NAMES[dir]} (blocked by ${facing})`;
  const held = env.carried[b];
  const heldName = held >= 0 ? `the ${objectLabel(env, b, held)}` : '';
  switch (env.effect[b * NUM_ACTIONS + a]) {
    case EFFECT_TAKE: {
      let first = '';
      for (let o = 0; o < L.numObjects[s] && first === ''; o++) if (env.objectLoc[b * MAX_OBJECTS + o] === ref) first = objectLabel(env, b, o);
      return `take the ${first} from ${facing}`;
    }
    case EFFECT_PUT:
      return `put ${heldName} on ${facing}`;
    case EFFECT_HEAT:
    case EFFECT_COOL:
    case EFFECT_CLEAN: {
      const verb = ['', '', '', 'heat', 'cool', 'clean'][env.effect[b * NUM_ACTIONS + a]];
      return `${verb} ${heldName} with ${facing}`;
    }
    case EFFECT_OPEN:
      return `open ${facing}`;
    case EFFECT_UNLOCK:
      return `unlock ${facing} with ${heldName}`;
  }
  return `interact with ${facing === 'floor' ? 'the floor' : facing} to the ${DIRECTION_NAMES[dir]} (nothing to do)`;
}

export function renderFrame(env: GridHouse, b: number): GridFrame {
  const s = env.slot[b];
  const L = env.layouts;
  const W = L.width[s];
  const H = L.height[s];
  let tiles = '';
  for (let c = 0; c < W * H; c++) {
    const tile = L.tile[s * MAX_CELLS + c];
    if (tile === TILE_DOOR) tiles += doorGlyph(env.doorState[b * MAX_DOORS + L.cellRef[s * MAX_CELLS + c]]);
    else tiles += tile === TILE_FLOOR || tile === TILE_FURNITURE ? '.' : '#';
  }
  const items: GridFrame['items'] = [];
  for (let f = 0; f < L.numFurniture[s]; f++) {
    const cell = L.furnitureCell[s * MAX_FURNITURE + f];
    const kind = L.furnitureKind[s * MAX_FURNITURE + f];
    const x = cell % W;
    const y = (cell - x) / W;
    items.push({ x, y, kind: kind < TABLE ? 'appliance' : 'receptacle', label: FURNITURE_NAMES[kind] });
    for (let o = 0; o < L.numObjects[s]; o++) {
      if (env.objectLoc[b * MAX_OBJECTS + o] !== f) continue;
      const isKey = L.objectKind[s * MAX_OBJECTS + o] === OBJECT_KEY;
      items.push({ x, y, kind: isKey ? 'key' : 'object', label: objectLabel(env, b, o) });
    }
  }
  const agent = env.agent[b];
  const ax = agent % W;
  return { width: W, height: H, tiles, agent: { x: ax, y: (agent - ax) / W }, items, carrying: carrying(env, b) };
}
