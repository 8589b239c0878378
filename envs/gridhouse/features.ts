/**
 * GridHouse features for a policy that scores each candidate action against the observation.
 *
 * They hold only what an agent in the house could see or remember, never planner output: nothing here
 * reads the oracle, plans a path to the next sub-goal or knows which milestone comes next. The task's
 * landmarks are described by kind, all at once and without saying which one matters now: the receptacle
 * the task object lies on, the receptacle the key lies on, the key's door, the other door, the
 * appliance the treatment needs and the destination (absent kinds are all zeros).
 *
 * Observation: the task (object kind, treatment, destination kind, key colour, length), which sub-goal
 * kinds are done, what is carried and the task object's state, the class of the four neighbouring
 * cells (the map around the agent), each door's state, for each landmark kind its walking distance
 * along paths open now (distance fields from layout.ts; out of reach behind a shut door) and whether the
 * agent stands beside it, the room, the position and the time.
 *
 * Action features: move or interact and the direction, the class of the cell it faces, what the
 * interaction does (take … unlock), which landmark kinds it touches, and for a move how it changes the
 * walking distance to each landmark kind within reach (+1 closer, −1 farther; 0 for one out of reach). Which of these matter when is what
 * the policy has to learn.
 *
 * Writing is incremental: one-hot groups remember which entry they set (`hot`), so a step clears that
 * one entry instead of zeroing whole rows, and nothing is allocated.
 */
import {
  CELL_CLASSES,
  FLAG_CLEAN,
  FLAG_COLD,
  FLAG_HOT,
  INTERACT,
  KEY_COLOURS,
  MAX_CELLS,
  MAX_DOORS,
  MAX_FURNITURE,
  MAX_LANDMARKS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  NUM_ACTIONS,
  OBJECT_KEY,
  TABLE,
  TASK_OBJECT,
  TREATMENT_FLAG,
  TREAT_NONE,
} from './catalog.ts';
import type { GridHouseState } from './state.ts';

/** Landmark kinds, in feature order. */
const LANDMARK_KINDS = ['object', 'key', 'key_door', 'other_door', 'appliance', 'destination'] as const;
const LM_OBJECT = 0;
const LM_KEY = 1;
const LM_KEY_DOOR = 2;
const LM_OTHER_DOOR = 3;
const LM_APPLIANCE = 4;
const LM_DESTINATION = 5;
const NUM_LANDMARK_KINDS = 6;
const MILESTONE_KIND_NAMES = ['take_key', 'unlock', 'open', 'take_object', 'treat', 'place'] as const;
const DOOR_STATE_NAMES = ['open', 'closed', 'locked'] as const;
const CELL_NAMES = ['floor', 'wall', 'open_door', 'closed_door', 'locked_door', 'appliance', 'receptacle'] as const;
const EFFECT_NAMES = ['take', 'put', 'heat', 'cool', 'clean', 'open', 'unlock'] as const;
/** Distances are scaled by this and clipped to 1. */
const DIST_SCALE = 16;
/** Walking distance of a landmark kind that is absent or behind a shut door. */
const UNREACHABLE = 255;

// ---- Observation layout (one row per episode); entries before OBS_DONE are fixed for the episode. ----
const OBS_OBJECT = 0; // 8: task object kind one-hot
const OBS_TREATMENT = 8; // 4: none / heat / cool / clean
const OBS_DEST = 12; // 3: destination table / counter / shelf
const OBS_KEY_COLOUR = 15; // 4: colour of the key the task needs (all 0 without a locked door)
const OBS_LENGTH = 19; // M / maxMilestones
const OBS_BIAS = 20; // constant 1
const OBS_DONE = 21; // 6: milestone kinds completed (take key … place)
const OBS_PROGRESS = 27; // milestones done / M
const OBS_CARRY = 28; // 4: nothing / key / task object / other object
const OBS_OBJECT_FLAGS = 32; // 3: task object hot / cold / clean
const OBS_TREATED = 35; // task object is in the state the task asks for
const OBS_NEIGHBOURS = 36; // 4 × 7: class of the cell north / east / south / west
const OBS_DOORS = 64; // 2 × 3: door d open / closed / locked (all 0 without it)
const OBS_LANDMARKS = 70; // 6 × 3: per landmark kind present, walking distance / 16 (1 if clipped or out of reach), beside it
const OBS_ROOM = 88; // 3: room one-hot
const OBS_X = 91;
const OBS_Y = 92;
export const OBS_TIME = 93; // steps / maxSteps
export const OBS_DIM = 94;

// ---- Action feature layout (one row per candidate). ----
const ACT_MOVE = 0;
const ACT_INTERACT = 1;
const ACT_DIRECTION = 2; // 4
const ACT_CELL = 6; // 7: class of the cell the action faces
const ACT_EFFECT = 13; // 7: what the interaction does (take … unlock)
const ACT_TOWARDS = 20; // 6: per landmark kind, +1 if the move shortens the walk to it, −1 if it lengthens it
const ACT_TOUCHES = 26; // 6: per landmark kind, the interaction is with it
const ACT_ADMISSIBLE = 32; // 1 on an admissible candidate (a per-action bias for the policy)
export const ACTION_DIM = 33;

/** Name of each observation feature, for tools and tests (the layout above, in order). */
export const OBS_FEATURE_NAMES: readonly string[] = [
  ...['apple', 'potato', 'egg', 'bread', 'mug', 'plate', 'tomato', 'lettuce'].map((o) => `task:object:${o}`),
  ...['none', 'heat', 'cool', 'clean'].map((t) => `task:treatment:${t}`),
  ...['table', 'counter', 'shelf'].map((d) => `task:destination:${d}`),
  ...KEY_COLOURS.map((c) => `task:key:${c}`),
  'task:length',
  'bias',
  ...MILESTONE_KIND_NAMES.map((m) => `done:${m}`),
  'progress',
  ...['nothing', 'key', 'task_object', 'other'].map((c) => `carry:${c}`),
  'object:hot',
  'object:cold',
  'object:clean',
  'object:treated',
  ...['north', 'east', 'south', 'west'].flatMap((d) => CELL_NAMES.map((c) => `${d}:${c}`)),
  ...[0, 1].flatMap((d) => DOOR_STATE_NAMES.map((s) => `door${d}:${s}`)),
  ...LANDMARK_KINDS.flatMap((k) => [`${k}:present`, `${k}:distance`, `${k}:beside`]),
  'room:0',
  'room:1',
  'room:2',
  'x',
  'y',
  'time',
];

/** Name of each action feature, for tools and tests (the layout above, in order). */
export const ACTION_FEATURE_NAMES: readonly string[] = [
  'move',
  'interact',
  ...['north', 'east', 'south', 'west'].map((d) => `direction:${d}`),
  ...CELL_NAMES.map((c) => `faces:${c}`),
  ...EFFECT_NAMES.map((e) => `effect:${e}`),
  ...LANDMARK_KINDS.map((k) => `towards:${k}`),
  ...LANDMARK_KINDS.map((k) => `touches:${k}`),
  'admissible',
];

// One-hot groups whose set entry is remembered per episode (FeatureWriter.hot).
const HOT_NEIGHBOUR = 0; // 4 groups: observation, class of each neighbour
const HOT_CARRY = 4;
const HOT_ROOM = 5;
const HOT_CELL = 6; // 8 groups: action features, class of the faced cell (moves, then interactions)
const HOT_EFFECT = 14; // 4 groups: interaction effect
const HOT_GROUPS = 18;

export class FeatureWriter {
  readonly obs: Float32Array;
  readonly actionFeatures: Float32Array;
  private readonly maxSteps: number;
  private readonly maxMilestones: number;
  /**
   * Per episode: which entry of each one-hot group is set (B × HOT_GROUPS). A group with nothing set
   * points at its first entry, which is then 0 and may be cleared again harmlessly.
   */
  private readonly hot: Uint8Array;
  /**
   * Scratch for the episode being written, per landmark kind: the offset of its distance field in
   * LayoutPool.dist (−1 if absent or out of reach), its cell (−1 if absent) and the walking distance
   * from the agent (UNREACHABLE if absent or out of reach).
   */
  private readonly landmark = new Int32Array(NUM_LANDMARK_KINDS);
  private readonly landmarkCell = new Int16Array(NUM_LANDMARK_KINDS);
  private readonly dHere = new Uint8Array(NUM_LANDMARK_KINDS);

  constructor(batchSize: number, maxSteps: number, maxMilestones: number) {
    const B = batchSize;
    this.maxSteps = maxSteps;
    this.maxMilestones = maxMilestones;
    this.obs = new Float32Array(B * OBS_DIM);
    this.actionFeatures = new Float32Array(B * NUM_ACTIONS * ACTION_DIM);
    this.hot = new Uint8Array(B * HOT_GROUPS);
    // Action type and direction never change: written once here, never cleared.
    for (let b = 0; b < B; b++) {
      for (let a = 0; a < NUM_ACTIONS; a++) {
        const row = (b * NUM_ACTIONS + a) * ACTION_DIM;
        this.actionFeatures[row + (a < INTERACT ? ACT_MOVE : ACT_INTERACT)] = 1;
        this.actionFeatures[row + ACT_DIRECTION + (a & 3)] = 1;
      }
    }
  }

  /** Zeroes episode b's features, then writes the entries fixed for the episode (task description, bias). */
  start(st: GridHouseState, b: number): void {
    const L = st.layouts;
    const s = st.slot[b];
    const o = b * OBS_DIM;
    const obs = this.obs;
    obs.fill(0, o, o + OBS_DIM);
    obs[o + OBS_OBJECT + L.objectKind[s * MAX_OBJECTS + TASK_OBJECT]] = 1;
    obs[o + OBS_TREATMENT + L.treatment[s]] = 1;
    obs[o + OBS_DEST + L.furnitureKind[s * MAX_FURNITURE + L.destination[s]] - TABLE] = 1;
    if (L.keyDoor[s] < MAX_DOORS) obs[o + OBS_KEY_COLOUR + L.keyColour[s]] = 1;
    obs[o + OBS_LENGTH] = L.numMilestones[s] / this.maxMilestones;
    obs[o + OBS_BIAS] = 1;
    this.hot.fill(0, b * HOT_GROUPS, (b + 1) * HOT_GROUPS);
    const f = this.actionFeatures;
    for (let a = 0; a < NUM_ACTIONS; a++) {
      const row = (b * NUM_ACTIONS + a) * ACTION_DIM;
      f.fill(0, row + ACT_CELL, row + ACTION_DIM);
    }
  }

  /** Sets entry `index` of the one-hot group starting at `base` to `value`, clearing the entry set before. */
  private setHot(array: Float32Array, base: number, b: number, group: number, index: number, value: 0 | 1): void {
    const h = b * HOT_GROUPS + group;
    array[base + this.hot[h]] = 0;
    array[base + index] = value;
    this.hot[h] = index;
  }

  /** Finds the landmark (distance field index) of each landmark kind in episode b's current state. */
  private locateLandmarks(st: GridHouseState, b: number): void {
    const L = st.layouts;
    const s = st.slot[b];
    const lm = this.landmark;
    const objectAt = st.objectLoc[b * MAX_OBJECTS + TASK_OBJECT];
    lm[LM_OBJECT] = objectAt < MAX_FURNITURE ? objectAt : -1;
    const hasKey = L.numObjects[s] > 1 && L.objectKind[s * MAX_OBJECTS + 1] === OBJECT_KEY;
    const keyAt = hasKey ? st.objectLoc[b * MAX_OBJECTS + 1] : 255;
    lm[LM_KEY] = keyAt < MAX_FURNITURE ? keyAt : -1;
    const keyDoor = L.keyDoor[s];
    lm[LM_KEY_DOOR] = keyDoor < MAX_DOORS ? MAX_FURNITURE + keyDoor : -1;
    lm[LM_OTHER_DOOR] = -1;
    for (let d = 0; d < L.numDoors[s]; d++) {
      if (d !== keyDoor) {
        lm[LM_OTHER_DOOR] = MAX_FURNITURE + d;
        break;
      }
    }
    lm[LM_APPLIANCE] = L.treatment[s] !== TREAT_NONE ? L.appliance[s] : -1;
    lm[LM_DESTINATION] = L.destination[s];
    const here = st.agent[b];
    const room = L.cellRoom[s * MAX_CELLS + here];
    for (let k = 0; k < NUM_LANDMARK_KINDS; k++) {
      const l = lm[k];
      if (l < 0) {
        this.landmarkCell[k] = -1;
        this.dHere[k] = UNREACHABLE;
        continue;
      }
      // Only paths open now count: the distance field (doors passable) is exact within the stretch of
      // rooms the agent can walk to, since rooms form a chain; beyond a shut door the landmark is out of reach.
      let reachable: boolean;
      if (l >= MAX_FURNITURE) {
        const d = l - MAX_FURNITURE;
        this.landmarkCell[k] = L.doorCell[s * MAX_DOORS + d];
        reachable = st.shutDoorBetween(b, room, d) < 0 || st.shutDoorBetween(b, room, d + 1) < 0;
      } else {
        this.landmarkCell[k] = L.furnitureCell[s * MAX_FURNITURE + l];
        reachable = st.shutDoorBetween(b, room, L.furnitureRoom[s * MAX_FURNITURE + l]) < 0;
      }
      // From here on lm[k] is the offset of the landmark's distance field, or −1 when out of reach.
      lm[k] = reachable ? (s * MAX_LANDMARKS + l) * MAX_CELLS : -1;
      this.dHere[k] = reachable ? L.dist[lm[k] + here] : UNREACHABLE;
    }
  }

  /** Rewrites the changing features of episode b from its state and mask (after writeAffordances). */
  write(st: GridHouseState, mask: Uint8Array, b: number, steps: number): void {
    const L = st.layouts;
    const s = st.slot[b];
    this.locateLandmarks(st, b);
    const lm = this.landmark;
    const W = L.width[s];
    const here = st.agent[b];
    const held = st.carried[b];
    const obs = this.obs;
    const o = b * OBS_DIM;
    const feats = this.actionFeatures;
    const mBase = b * NUM_ACTIONS;

    for (let dir = 0; dir < 4; dir++) {
      const nb = st.neighbour(b, here, dir);
      const cls = st.faced[b * 4 + dir];
      this.setHot(obs, o + OBS_NEIGHBOURS + dir * CELL_CLASSES, b, HOT_NEIGHBOUR + dir, cls, 1);

      // Move in this direction (type and direction entries were written by the constructor).
      const mv = (mBase + dir) * ACTION_DIM;
      const walkable = mask[mBase + dir] === 1;
      this.setHot(feats, mv + ACT_CELL, b, HOT_CELL + dir, cls, 1);
      feats[mv + ACT_ADMISSIBLE] = walkable ? 1 : 0;
      for (let k = 0; k < NUM_LANDMARK_KINDS; k++) {
        let towards = 0;
        if (walkable && lm[k] >= 0) {
          const dNext = L.dist[lm[k] + nb];
          towards = dNext < this.dHere[k] ? 1 : dNext > this.dHere[k] ? -1 : 0;
        }
        feats[mv + ACT_TOWARDS + k] = towards;
      }

      // Interact in this direction.
      const ia = (mBase + INTERACT + dir) * ACTION_DIM;
      const admissible = mask[mBase + INTERACT + dir] === 1;
      const effect = st.effect[mBase + INTERACT + dir];
      this.setHot(feats, ia + ACT_CELL, b, HOT_CELL + INTERACT + dir, cls, 1);
      feats[ia + ACT_ADMISSIBLE] = admissible ? 1 : 0;
      this.setHot(feats, ia + ACT_EFFECT, b, HOT_EFFECT + dir, admissible ? effect - 1 : 0, admissible ? 1 : 0);
      for (let k = 0; k < NUM_LANDMARK_KINDS; k++) feats[ia + ACT_TOUCHES + k] = admissible && nb === this.landmarkCell[k] ? 1 : 0;
    }

    // Observation (the fixed part was written at reset).
    const k = st.progress[b];
    const M = L.numMilestones[s];
    obs.fill(0, o + OBS_DONE, o + OBS_DONE + MILESTONE_KIND_NAMES.length);
    for (let j = 0; j < k; j++) obs[o + OBS_DONE + L.milestoneKind[s * MAX_MILESTONES + j]] = 1;
    obs[o + OBS_PROGRESS] = k / M;
    this.setHot(obs, o + OBS_CARRY, b, HOT_CARRY, held < 0 ? 0 : st.holdsKey(b) ? 1 : held === TASK_OBJECT ? 2 : 3, 1);
    const flags = st.objectFlags[b * MAX_OBJECTS + TASK_OBJECT];
    obs[o + OBS_OBJECT_FLAGS] = flags & FLAG_HOT ? 1 : 0;
    obs[o + OBS_OBJECT_FLAGS + 1] = flags & FLAG_COLD ? 1 : 0;
    obs[o + OBS_OBJECT_FLAGS + 2] = flags & FLAG_CLEAN ? 1 : 0;
    const t = L.treatment[s];
    obs[o + OBS_TREATED] = t === TREAT_NONE || (flags & TREATMENT_FLAG[t]) !== 0 ? 1 : 0;
    for (let d = 0; d < MAX_DOORS; d++) {
      const base = o + OBS_DOORS + d * DOOR_STATE_NAMES.length;
      obs.fill(0, base, base + DOOR_STATE_NAMES.length);
      if (d < L.numDoors[s]) obs[base + st.doorState[b * MAX_DOORS + d]] = 1;
    }
    for (let j = 0; j < NUM_LANDMARK_KINDS; j++) {
      const base = o + OBS_LANDMARKS + 3 * j;
      const d = this.dHere[j];
      obs[base] = this.landmarkCell[j] >= 0 ? 1 : 0;
      obs[base + 1] = d >= DIST_SCALE ? 1 : d / DIST_SCALE;
      obs[base + 2] = d === 0 ? 1 : 0;
    }
    const hx = here % W;
    this.setHot(obs, o + OBS_ROOM, b, HOT_ROOM, L.cellRoom[s * MAX_CELLS + here], 1);
    obs[o + OBS_X] = hx / W;
    obs[o + OBS_Y] = (here - hx) / W / L.height[s];
    obs[o + OBS_TIME] = steps / this.maxSteps;
  }
}
