/**
 * GridHouse as text and as a drawing snapshot: task sentence, milestone names, observation (a short
 * description plus an ASCII map), action commands and GridFrame. Built only when asked for; it reads the
 * episode state and never runs in the training hot path. The "walk N steps to …" hint in the text
 * observation is the oracle's (a reading aid for people); the policy never sees it.
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
import { NO_TARGET, oracleTarget, targetLandmark } from './oracle.ts';
import type { GridHouseState } from './state.ts';

const LEGEND = `@ you  # wall  . floor  + open door  D closed door  L locked door  ${Array.from(FURNITURE_GLYPHS, (g, k) => `${g} ${FURNITURE_NAMES[k]}`).join('  ')}`;

function roomName(st: GridHouseState, b: number, room: number): string {
  return ROOM_NAMES[st.layouts.roomName[st.slot[b] * MAX_ROOMS + room]];
}

function furnitureName(st: GridHouseState, b: number, f: number): string {
  return FURNITURE_NAMES[st.layouts.furnitureKind[st.slot[b] * MAX_FURNITURE + f]];
}

function keyColour(st: GridHouseState, b: number): string {
  return KEY_COLOURS[st.layouts.keyColour[st.slot[b]]];
}

/** "red key", "hot apple", "clean mug": an object with its current state. */
function objectLabel(st: GridHouseState, b: number, o: number): string {
  const kind = st.layouts.objectKind[st.slot[b] * MAX_OBJECTS + o];
  if (kind === OBJECT_KEY) return `${keyColour(st, b)} key`;
  const flags = st.objectFlags[b * MAX_OBJECTS + o];
  const words: string[] = [];
  if (flags & FLAG_HOT) words.push('hot');
  if (flags & FLAG_COLD) words.push('cold');
  if (flags & FLAG_CLEAN) words.push('clean');
  words.push(OBJECT_NAMES[kind]);
  return words.join(' ');
}

function doorName(st: GridHouseState, b: number, d: number): string {
  if (st.layouts.doorInitial[st.slot[b] * MAX_DOORS + d] === DOOR_LOCKED) return `the ${keyColour(st, b)} door`;
  return `the door to the ${roomName(st, b, d + 1)}`;
}

function milestoneName(st: GridHouseState, b: number, k: number): string {
  const s = st.slot[b];
  const L = st.layouts;
  const m = s * MAX_MILESTONES + k;
  const object = OBJECT_NAMES[L.objectKind[s * MAX_OBJECTS + TASK_OBJECT]];
  const t = L.treatment[s];
  switch (L.milestoneKind[m]) {
    case MS_TAKE_KEY:
      return `take the ${keyColour(st, b)} key`;
    case MS_UNLOCK:
      return `unlock ${doorName(st, b, L.milestoneArg[m])}`;
    case MS_OPEN:
      return `open ${doorName(st, b, L.milestoneArg[m])}`;
    case MS_TAKE_OBJECT:
      return `take the ${object}`;
    case MS_TREAT:
      return `${TREATMENT_VERBS[t]} the ${object} with the ${furnitureName(st, b, L.appliance[s])}`;
    case MS_PLACE: {
      const adjective = t === TREAT_NONE ? '' : `${TREATMENT_ADJECTIVES[t]} `;
      return `put the ${adjective}${object} on the ${furnitureName(st, b, L.destination[s])}`;
    }
  }
  throw new Error(`unknown milestone kind ${L.milestoneKind[m]}`);
}

export function describeMilestones(st: GridHouseState, b: number): string[] {
  const names: string[] = [];
  for (let k = 0; k < st.layouts.numMilestones[st.slot[b]]; k++) names.push(milestoneName(st, b, k));
  return names;
}

export function describeTask(st: GridHouseState, b: number): string {
  const steps = describeMilestones(st, b);
  return steps.length === 1 ? steps[0] : `${steps.slice(0, -1).join(', ')}, then ${steps[steps.length - 1]}`;
}

/** Row strings of the house: walls, floor, doors by state, furniture glyphs, '@' for the agent. */
function asciiMap(st: GridHouseState, b: number): string[] {
  const s = st.slot[b];
  const L = st.layouts;
  const W = L.width[s];
  const H = L.height[s];
  const rows: string[] = [];
  for (let y = 0; y < H; y++) {
    let row = '';
    for (let x = 0; x < W; x++) {
      const c = y * W + x;
      const tile = L.tile[s * MAX_CELLS + c];
      if (c === st.agent[b]) row += '@';
      else if (tile === TILE_FLOOR) row += '.';
      else if (tile === TILE_DOOR) row += doorGlyph(st.doorState[b * MAX_DOORS + L.cellRef[s * MAX_CELLS + c]]);
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

function contents(st: GridHouseState, b: number, f: number): string[] {
  const names: string[] = [];
  for (let o = 0; o < st.layouts.numObjects[st.slot[b]]; o++) if (st.objectLoc[b * MAX_OBJECTS + o] === f) names.push(objectLabel(st, b, o));
  return names;
}

function carrying(st: GridHouseState, b: number): string | null {
  const held = st.carried[b];
  return held < 0 ? null : objectLabel(st, b, held);
}

export function describeObservation(st: GridHouseState, b: number): string {
  const s = st.slot[b];
  const L = st.layouts;
  const lines: string[] = [];
  const room = L.cellRoom[s * MAX_CELLS + st.agent[b]];
  const held = carrying(st, b);
  const where = L.numRooms[s] > 1 ? `in the ${roomName(st, b, room)} (room ${room + 1} of ${L.numRooms[s]})` : `in the ${roomName(st, b, room)}`;
  lines.push(`You are ${where}, carrying ${held === null ? 'nothing' : `a ${held}`}.`);
  const k = st.progress[b];
  const M = L.numMilestones[s];
  if (k >= M) {
    lines.push(`Task done: ${describeTask(st, b)}.`);
  } else {
    let next = `Next (${k + 1} of ${M}): ${milestoneName(st, b, k)}.`;
    const target = oracleTarget(st, b);
    if (target !== NO_TARGET) {
      const t = targetLandmark(target);
      const landmark = t >= MAX_FURNITURE ? doorName(st, b, t - MAX_FURNITURE) : `the ${furnitureName(st, b, t)}`;
      const d = L.dist[(s * MAX_LANDMARKS + t) * MAX_CELLS + st.agent[b]];
      next += d === 0 ? ` You are beside ${landmark}.` : ` Walk ${d} step${d === 1 ? '' : 's'} to ${landmark}.`;
    }
    lines.push(next);
  }
  const shelves: string[] = [];
  for (let f = 0; f < L.numFurniture[s]; f++) {
    if (L.furnitureKind[s * MAX_FURNITURE + f] < TABLE) continue;
    const items = contents(st, b, f);
    shelves.push(`the ${furnitureName(st, b, f)}: ${items.length === 0 ? 'nothing' : items.join(', ')}`);
  }
  lines.push(`On ${shelves.join('; ')}.`);
  lines.push(...asciiMap(st, b));
  lines.push(LEGEND);
  return lines.join('\n');
}

export function describeAction(st: GridHouseState, mask: Uint8Array, b: number, a: number): string {
  const s = st.slot[b];
  const L = st.layouts;
  const dir = a & 3;
  const W = L.width[s];
  const here = st.agent[b];
  const nb = dir === 0 ? here - W : dir === 1 ? here + 1 : dir === 2 ? here + W : here - 1;
  const tile = L.tile[s * MAX_CELLS + nb];
  const ref = L.cellRef[s * MAX_CELLS + nb];
  const facing =
    tile === TILE_FLOOR ? 'floor' : tile === TILE_DOOR ? doorName(st, b, ref) : tile === TILE_FURNITURE ? `the ${furnitureName(st, b, ref)}` : 'a wall';
  const admissible = mask[b * NUM_ACTIONS + a] === 1;
  if (a < INTERACT) return admissible ? `move ${DIRECTION_NAMES[dir]}` : `move ${DIRECTION_NAMES[dir]} (blocked by ${facing})`;
  const held = st.carried[b];
  const heldName = held >= 0 ? `the ${objectLabel(st, b, held)}` : '';
  switch (st.effect[b * NUM_ACTIONS + a]) {
    case EFFECT_TAKE: {
      let first = '';
      for (let o = 0; o < L.numObjects[s] && first === ''; o++) if (st.objectLoc[b * MAX_OBJECTS + o] === ref) first = objectLabel(st, b, o);
      return `take the ${first} from ${facing}`;
    }
    case EFFECT_PUT:
      return `put ${heldName} on ${facing}`;
    case EFFECT_HEAT:
    case EFFECT_COOL:
    case EFFECT_CLEAN: {
      const verb = ['', '', '', 'heat', 'cool', 'clean'][st.effect[b * NUM_ACTIONS + a]];
      return `${verb} ${heldName} with ${facing}`;
    }
    case EFFECT_OPEN:
      return `open ${facing}`;
    case EFFECT_UNLOCK:
      return `unlock ${facing} with ${heldName}`;
  }
  return `interact with ${facing === 'floor' ? 'the floor' : facing} to the ${DIRECTION_NAMES[dir]} (nothing to do)`;
}

export function renderFrame(st: GridHouseState, b: number): GridFrame {
  const s = st.slot[b];
  const L = st.layouts;
  const W = L.width[s];
  const H = L.height[s];
  let tiles = '';
  for (let c = 0; c < W * H; c++) {
    const tile = L.tile[s * MAX_CELLS + c];
    if (tile === TILE_DOOR) tiles += doorGlyph(st.doorState[b * MAX_DOORS + L.cellRef[s * MAX_CELLS + c]]);
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
      if (st.objectLoc[b * MAX_OBJECTS + o] !== f) continue;
      const isKey = L.objectKind[s * MAX_OBJECTS + o] === OBJECT_KEY;
      items.push({ x, y, kind: isKey ? 'key' : 'object', label: objectLabel(st, b, o) });
    }
  }
  const agent = st.agent[b];
  const ax = agent % W;
  return { width: W, height: H, tiles, agent: { x: ax, y: (agent - ax) / W }, items, carrying: carrying(st, b) };
}
