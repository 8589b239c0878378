/**
 * GridHouse: a vectorised gridworld house (envs/types.ts VecEnv).
 *
 * The agent walks between rooms, takes objects from receptacles (table, counter, shelf), treats them
 * with appliances (microwave heats, fridge cools, sink cleans), unlocks and opens doors, and puts the
 * task object on its destination. Eight candidate actions: move N/E/S/W and interact N/E/S/W, where an
 * interaction does whatever the adjacent cell affords (take, put, heat, cool, clean, open, unlock).
 * Taking from a receptacle takes its lowest-numbered object, so the task object (slot 0) is always
 * reachable under a pile of distractors and no task can deadlock.
 *
 * Milestones (docs/maths.md §2) are read from the state after each step: only the next one in task order is
 * tested, so each fires at most once and in order; the task is built so that the next milestone's
 * condition can only become true through the action that completes it. Dropout (§6) hides a milestone
 * from the report without changing the task's progress.
 *
 * All per-episode state lives in typed arrays sized for B; step() and the feature writes allocate nothing.
 * Episodes with equal task seeds (a GRPO group) play one shared generated instance (layout.ts).
 *
 * Features are made for a teaching demo of credit assignment, not of exploration: the observation says
 * which sub-goal is next and where the landmark it needs is (distance fields from layout.ts), and every
 * action says what it would touch and whether it moves closer to that landmark. The oracle follows the
 * same landmark, so computing features also yields the oracle's action.
 */
import type { Rng } from '../../src/prng.ts';
import { validateEnvOptions, type EnvOptions, type GridFrame, type Horizon, type VecEnv } from '../types.ts';
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
  MAX_LANDMARKS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  CELL_CLASSES,
  MS_OPEN,
  MS_PLACE,
  MS_TAKE_KEY,
  MS_TAKE_OBJECT,
  MS_TREAT,
  MS_UNLOCK,
  NUM_ACTIONS,
  OBJECT_KEY,
  TABLE,
  TASK_OBJECT,
  TILE_DOOR,
  TILE_FLOOR,
  TILE_FURNITURE,
  TREATMENT_FLAG,
  TREAT_NONE,
} from './catalog.ts';
import { HORIZON_SPECS } from './horizons.ts';
import { LayoutPool } from './layout.ts';
import * as text from './text.ts';

/** Object location codes besides a furniture index. */
export const LOC_CARRIED = 254;
export const LOC_GONE = 255; // a key left in its lock

// ---- Observation layout (one row per episode); entries 0…OBS_DYNAMIC−1 are fixed for the episode. ----
export const OBS_OBJECT = 0; // 8: task object kind one-hot
export const OBS_TREATMENT = 8; // 4: none / heat / cool / clean
export const OBS_DEST = 12; // 3: destination table / counter / shelf
export const OBS_LENGTH = 15; // M / maxMilestones
export const OBS_BIAS = 16; // constant 1
export const OBS_DYNAMIC = 17;
export const OBS_NEXT = 17; // 6: kind of the next milestone (all 0 once solved)
export const OBS_PROGRESS = 23; // milestones done / M
export const OBS_CARRY = 24; // 4: nothing / key / task object / other object
export const OBS_OBJECT_FLAGS = 28; // 3: task object hot / cold / clean
export const OBS_TREATED = 31; // task object is in the state the task asks for
export const OBS_NEIGHBOURS = 32; // 4 × 7: class of the cell north / east / south / west
export const OBS_TARGET_EFFECT = 60; // 7: interaction the current landmark wants (take … unlock)
export const OBS_TARGET_DX = 67; // signed x offset to the landmark / 8
export const OBS_TARGET_DY = 68; // signed y offset to the landmark / 8
export const OBS_TARGET_DIST = 69; // walking distance to a cell beside the landmark / 16 (clipped to 1)
export const OBS_TARGET_ADJACENT = 70; // standing beside the landmark
export const OBS_ROOM = 71; // 3: room one-hot
export const OBS_X = 74;
export const OBS_Y = 75;
export const OBS_TIME = 76; // steps / maxSteps
export const OBS_DIM = 77;

// ---- Action feature layout (one row per candidate). ----
export const ACT_MOVE = 0;
export const ACT_INTERACT = 1;
export const ACT_DIRECTION = 2; // 4
export const ACT_CELL = 6; // 7: class of the cell the action faces
export const ACT_CLOSER = 13; // move that shortens the walk to the landmark
export const ACT_FARTHER = 14; // move that lengthens it
export const ACT_EFFECT = 15; // 7: what the interaction does (take … unlock)
export const ACT_TOUCHES_TARGET = 22; // interaction with the current landmark
export const ACT_ADMISSIBLE = 23; // 1 on an admissible candidate (a per-action bias for the policy)
export const ACTION_DIM = 24;

const HASH_M = 0x9e3779b1;
const TREATMENT_EFFECT = [EFFECT_NONE, EFFECT_HEAT, EFFECT_COOL, EFFECT_CLEAN] as const;
/** Flag each appliance kind sets and the effect of using it (microwave, fridge, sink). */
const APPLIANCE_FLAG = [FLAG_HOT, FLAG_COLD, FLAG_CLEAN] as const;
const APPLIANCE_EFFECT = [EFFECT_HEAT, EFFECT_COOL, EFFECT_CLEAN] as const;

// One-hot groups whose set entry is remembered per episode (see GridHouse.hot).
const HOT_NEIGHBOUR = 0; // 4 groups: observation, class of each neighbour
const HOT_NEXT = 4;
const HOT_CARRY = 5;
const HOT_TARGET = 6;
const HOT_ROOM = 7;
const HOT_CELL = 8; // 8 groups: action features, class of the faced cell (moves, then interactions)
const HOT_EFFECT = 16; // 4 groups: interaction effect
const HOT_GROUPS = 20;

class GridHouse implements VecEnv {
  readonly name = 'gridhouse';
  readonly horizon: Horizon;
  readonly batchSize: number;
  readonly obsDim = OBS_DIM;
  readonly actionDim = ACTION_DIM;
  readonly maxActions = NUM_ACTIONS;
  readonly maxSteps: number;
  readonly maxMilestones: number;
  readonly milestoneDropout: number;

  readonly obs: Float32Array;
  readonly actionFeatures: Float32Array;
  readonly actionMask: Uint8Array;
  readonly stateKey: Uint32Array;
  readonly numMilestones: Uint8Array;
  readonly milestone: Uint8Array;
  readonly milestonesReached: Uint8Array;
  readonly done: Uint8Array;
  readonly success: Uint8Array;
  readonly steps: Int32Array;

  // ---- Internal per-episode state, read by text.ts and the tests. ----
  /** Task instances; episode b plays instance `slot[b]` (episodes with equal seeds share one). */
  readonly layouts: LayoutPool;
  readonly slot: Int32Array;
  readonly agent: Uint8Array;
  /** Object slot in hand, −1 for none. */
  readonly carried: Int8Array;
  /** B × MAX_OBJECTS: furniture index, LOC_CARRIED or LOC_GONE. */
  readonly objectLoc: Uint8Array;
  /** B × MAX_OBJECTS: FLAG_HOT | FLAG_COLD | FLAG_CLEAN. */
  readonly objectFlags: Uint8Array;
  /** B × MAX_FURNITURE: objects on each receptacle. */
  readonly furnitureLoad: Uint8Array;
  /** B × MAX_DOORS: DOOR_OPEN / DOOR_CLOSED / DOOR_LOCKED. */
  readonly doorState: Uint8Array;
  /** True milestones completed (before dropout). */
  readonly progress: Uint8Array;
  /** Bit k set: milestone k+1 of the episode is dropped from the report. */
  readonly dropped: Uint8Array;
  /** Landmark the next sub-goal needs (furniture f or MAX_FURNITURE + door), −1 once solved. */
  readonly target: Int8Array;
  /** Expected interaction at the landmark (EFFECT_*). */
  readonly targetEffect: Uint8Array;
  /** The oracle's action for the current state. */
  readonly oracle: Int8Array;
  /** Per episode per action: EFFECT_* of the interaction in that direction (moves: 0). */
  readonly effect: Uint8Array;
  /**
   * Per episode: which entry of each one-hot group of its features is set (B × HOT_GROUPS), so a step
   * clears that one entry instead of zeroing whole rows. A group with nothing set points at its first
   * entry, which is then 0 and may be cleared again harmlessly.
   */
  private readonly hot: Uint8Array;

  constructor(options: EnvOptions) {
    const { horizon, batchSize, milestoneDropout } = validateEnvOptions(options);
    const spec = HORIZON_SPECS[horizon];
    this.horizon = horizon;
    this.batchSize = batchSize;
    this.milestoneDropout = milestoneDropout;
    this.maxSteps = spec.maxSteps;
    this.maxMilestones = spec.milestones;
    const B = batchSize;
    this.obs = new Float32Array(B * OBS_DIM);
    this.actionFeatures = new Float32Array(B * NUM_ACTIONS * ACTION_DIM);
    this.actionMask = new Uint8Array(B * NUM_ACTIONS);
    this.stateKey = new Uint32Array(B);
    this.numMilestones = new Uint8Array(B);
    this.milestone = new Uint8Array(B);
    this.milestonesReached = new Uint8Array(B);
    this.done = new Uint8Array(B).fill(1); // no episode is live before the first reset
    this.success = new Uint8Array(B);
    this.steps = new Int32Array(B);
    this.layouts = new LayoutPool(B);
    this.slot = new Int32Array(B);
    this.agent = new Uint8Array(B);
    this.carried = new Int8Array(B);
    this.objectLoc = new Uint8Array(B * MAX_OBJECTS);
    this.objectFlags = new Uint8Array(B * MAX_OBJECTS);
    this.furnitureLoad = new Uint8Array(B * MAX_FURNITURE);
    this.doorState = new Uint8Array(B * MAX_DOORS);
    this.progress = new Uint8Array(B);
    this.dropped = new Uint8Array(B);
    this.target = new Int8Array(B);
    this.targetEffect = new Uint8Array(B);
    this.oracle = new Int8Array(B);
    this.effect = new Uint8Array(B * NUM_ACTIONS);
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

  reset(taskSeeds: ArrayLike<number>, rng: Rng): void {
    const B = this.batchSize;
    if (taskSeeds.length !== B) throw new RangeError(`taskSeeds must have batchSize (${B}) entries; got ${taskSeeds.length}`);
    for (let b = 0; b < B; b++) {
      const seed = taskSeeds[b];
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
        throw new RangeError(`taskSeeds[${b}] must be an integer in [0, 4294967295]; got ${seed}`);
      }
    }
    // One generation per distinct seed: a GRPO group of G equal seeds shares one instance.
    const L = this.layouts;
    const slotOfSeed = new Map<number, number>();
    for (let b = 0; b < B; b++) {
      const seed = taskSeeds[b];
      let s = slotOfSeed.get(seed);
      if (s === undefined) {
        s = slotOfSeed.size;
        L.generate(s, seed, this.horizon);
        slotOfSeed.set(seed, s);
      }
      this.slot[b] = s;
    }
    const p = this.milestoneDropout;
    for (let b = 0; b < B; b++) {
      const s = this.slot[b];
      this.agent[b] = L.startCell[s];
      this.carried[b] = -1;
      const no = L.numObjects[s];
      this.furnitureLoad.fill(0, b * MAX_FURNITURE, (b + 1) * MAX_FURNITURE);
      for (let o = 0; o < MAX_OBJECTS; o++) {
        const i = b * MAX_OBJECTS + o;
        this.objectFlags[i] = 0;
        if (o < no) {
          const f = L.objectStart[s * MAX_OBJECTS + o];
          this.objectLoc[i] = f;
          this.furnitureLoad[b * MAX_FURNITURE + f]++;
        } else {
          this.objectLoc[i] = LOC_GONE;
        }
      }
      for (let d = 0; d < MAX_DOORS; d++) this.doorState[b * MAX_DOORS + d] = L.doorInitial[s * MAX_DOORS + d];
      this.progress[b] = 0;
      // Dropout is decided per episode and per milestone up front (docs/maths.md §6); no draws when p = 0.
      let bits = 0;
      if (p > 0) for (let k = 0; k < MAX_MILESTONES; k++) if (rng.bernoulli(p)) bits |= 1 << k;
      this.dropped[b] = bits;
      this.numMilestones[b] = L.numMilestones[s];
      this.milestone[b] = 0;
      this.milestonesReached[b] = 0;
      this.done[b] = 0;
      this.success[b] = 0;
      this.steps[b] = 0;
      this.clearFeatures(b);
      this.update(b);
    }
  }

  step(actions: Int32Array): void {
    const B = this.batchSize;
    if (actions.length < B) throw new RangeError(`actions must have batchSize (${B}) entries; got ${actions.length}`);
    const mask = this.actionMask;
    const done = this.done;
    // Validate the whole batch first so a bad action leaves every episode untouched.
    for (let b = 0; b < B; b++) {
      if (done[b]) continue;
      const a = actions[b];
      if (!(a >= 0 && a < NUM_ACTIONS && mask[b * NUM_ACTIONS + a] === 1)) {
        throw new RangeError(`gridhouse: action ${a} is not admissible in episode ${b} (step ${this.steps[b]})`);
      }
    }
    const L = this.layouts;
    for (let b = 0; b < B; b++) {
      if (done[b]) {
        this.milestone[b] = 0;
        continue;
      }
      const a = actions[b];
      const W = L.width[this.slot[b]];
      const dir = a & 3;
      const here = this.agent[b];
      const nb = dir === 0 ? here - W : dir === 1 ? here + 1 : dir === 2 ? here + W : here - 1;
      if (a < INTERACT) {
        this.agent[b] = nb;
      } else {
        this.interact(b, nb, this.effect[b * NUM_ACTIONS + a]);
      }
      this.steps[b]++;
      this.detectMilestone(b);
      if (!this.done[b] && this.steps[b] >= this.maxSteps) this.done[b] = 1;
      this.update(b);
    }
  }

  oracleActions(out: Int32Array): void {
    for (let b = 0; b < this.batchSize; b++) out[b] = this.done[b] ? 0 : this.oracle[b];
  }

  describeTask(b: number): string {
    return text.describeTask(this, this.check(b));
  }
  describeObservation(b: number): string {
    return text.describeObservation(this, this.check(b));
  }
  describeAction(b: number, a: number): string {
    if (!Number.isInteger(a) || a < 0 || a >= NUM_ACTIONS) throw new RangeError(`action must be an integer in [0, ${NUM_ACTIONS - 1}]; got ${a}`);
    return text.describeAction(this, this.check(b), a);
  }
  describeMilestones(b: number): string[] {
    return text.describeMilestones(this, this.check(b));
  }
  renderFrame(b: number): GridFrame {
    return text.renderFrame(this, this.check(b));
  }

  private check(b: number): number {
    if (!Number.isInteger(b) || b < 0 || b >= this.batchSize) throw new RangeError(`episode must be an integer in [0, ${this.batchSize - 1}]; got ${b}`);
    return b;
  }

  /** Applies an interaction whose effect was computed (and found admissible) by the last update(). */
  private interact(b: number, cell: number, effect: number): void {
    const L = this.layouts;
    const s = this.slot[b];
    const ref = L.cellRef[s * MAX_CELLS + cell];
    const held = this.carried[b];
    switch (effect) {
      case EFFECT_OPEN:
        this.doorState[b * MAX_DOORS + ref] = DOOR_OPEN;
        break;
      case EFFECT_UNLOCK:
        // The key stays in the lock: hands are free again for the rest of the task.
        this.doorState[b * MAX_DOORS + ref] = DOOR_OPEN;
        this.objectLoc[b * MAX_OBJECTS + held] = LOC_GONE;
        this.carried[b] = -1;
        break;
      case EFFECT_HEAT: {
        const i = b * MAX_OBJECTS + held;
        this.objectFlags[i] = (this.objectFlags[i] & ~FLAG_COLD) | FLAG_HOT;
        break;
      }
      case EFFECT_COOL: {
        const i = b * MAX_OBJECTS + held;
        this.objectFlags[i] = (this.objectFlags[i] & ~FLAG_HOT) | FLAG_COLD;
        break;
      }
      case EFFECT_CLEAN:
        this.objectFlags[b * MAX_OBJECTS + held] |= FLAG_CLEAN;
        break;
      case EFFECT_PUT:
        this.objectLoc[b * MAX_OBJECTS + held] = ref;
        this.furnitureLoad[b * MAX_FURNITURE + ref]++;
        this.carried[b] = -1;
        break;
      case EFFECT_TAKE: {
        // Lowest-numbered object on the receptacle: the task object first, then the key.
        const no = L.numObjects[s];
        for (let o = 0; o < no; o++) {
          if (this.objectLoc[b * MAX_OBJECTS + o] === ref) {
            this.objectLoc[b * MAX_OBJECTS + o] = LOC_CARRIED;
            this.furnitureLoad[b * MAX_FURNITURE + ref]--;
            this.carried[b] = o;
            break;
          }
        }
        break;
      }
    }
  }

  /** Φ: tests the next milestone in task order against the state after the step (docs/maths.md §2). */
  private detectMilestone(b: number): void {
    const L = this.layouts;
    const s = this.slot[b];
    const k = this.progress[b];
    const m = s * MAX_MILESTONES + k;
    let reached = false;
    switch (L.milestoneKind[m]) {
      case MS_TAKE_KEY:
        reached = this.carried[b] >= 0 && L.objectKind[s * MAX_OBJECTS + this.carried[b]] === OBJECT_KEY;
        break;
      case MS_UNLOCK:
      case MS_OPEN:
        reached = this.doorState[b * MAX_DOORS + L.milestoneArg[m]] === DOOR_OPEN;
        break;
      case MS_TAKE_OBJECT:
        reached = this.carried[b] === TASK_OBJECT;
        break;
      case MS_TREAT:
        reached = (this.objectFlags[b * MAX_OBJECTS] & TREATMENT_FLAG[L.treatment[s]]) !== 0;
        break;
      case MS_PLACE: {
        const t = L.treatment[s];
        reached = this.objectLoc[b * MAX_OBJECTS] === L.destination[s] && (t === TREAT_NONE || (this.objectFlags[b * MAX_OBJECTS] & TREATMENT_FLAG[t]) !== 0);
        break;
      }
    }
    if (!reached) {
      this.milestone[b] = 0;
      return;
    }
    this.progress[b] = k + 1;
    if ((this.dropped[b] >> k) & 1) {
      this.milestone[b] = 0;
    } else {
      this.milestone[b] = k + 1;
      this.milestonesReached[b]++;
    }
    if (k + 1 === L.numMilestones[s]) {
      this.done[b] = 1;
      this.success[b] = 1;
    }
  }

  /** Zeroes episode b's features, then writes the entries fixed for the episode (task encoding, bias). */
  private clearFeatures(b: number): void {
    const L = this.layouts;
    const s = this.slot[b];
    const o = b * OBS_DIM;
    const obs = this.obs;
    obs.fill(0, o, o + OBS_DIM);
    obs[o + OBS_OBJECT + L.objectKind[s * MAX_OBJECTS]] = 1;
    obs[o + OBS_TREATMENT + L.treatment[s]] = 1;
    obs[o + OBS_DEST + L.furnitureKind[s * MAX_FURNITURE + L.destination[s]] - TABLE] = 1;
    obs[o + OBS_LENGTH] = L.numMilestones[s] / this.maxMilestones;
    obs[o + OBS_BIAS] = 1;
    this.hot.fill(0, b * HOT_GROUPS, (b + 1) * HOT_GROUPS);
    const f = this.actionFeatures;
    for (let a = 0; a < NUM_ACTIONS; a++) {
      const row = (b * NUM_ACTIONS + a) * ACTION_DIM;
      f.fill(0, row + ACT_CELL, row + ACTION_DIM);
    }
  }

  /** Chooses the landmark the next sub-goal needs and the interaction it wants there. */
  private chooseTarget(b: number, s: number): void {
    const L = this.layouts;
    const held = this.carried[b];
    const agentRoom = L.cellRoom[s * MAX_CELLS + this.agent[b]];
    if (this.progress[b] === L.numMilestones[s]) {
      this.target[b] = -1;
      this.targetEffect[b] = EFFECT_NONE;
      return;
    }
    if (held >= 0 && L.objectKind[s * MAX_OBJECTS + held] === OBJECT_KEY) {
      this.target[b] = MAX_FURNITURE + L.keyDoor[s];
      this.targetEffect[b] = EFFECT_UNLOCK;
      return;
    }
    if (held > 0) {
      // Something the task does not need: park it on the nearest receptacle within reach.
      const distBase = s * MAX_LANDMARKS * MAX_CELLS + this.agent[b];
      let best = -1;
      let bestDist = 256;
      const nf = L.numFurniture[s];
      for (let f = 0; f < nf; f++) {
        if (L.furnitureKind[s * MAX_FURNITURE + f] < TABLE || this.firstShutDoor(b, agentRoom, L.furnitureRoom[s * MAX_FURNITURE + f]) >= 0) continue;
        const d = L.dist[distBase + f * MAX_CELLS];
        if (d < bestDist) {
          bestDist = d;
          best = f;
        }
      }
      this.target[b] = best;
      this.targetEffect[b] = EFFECT_PUT;
      return;
    }
    const t = L.treatment[s];
    if (held === TASK_OBJECT) {
      if (t !== TREAT_NONE && (this.objectFlags[b * MAX_OBJECTS] & TREATMENT_FLAG[t]) === 0) {
        this.target[b] = L.appliance[s];
        this.targetEffect[b] = TREATMENT_EFFECT[t];
      } else {
        this.target[b] = L.destination[s];
        this.targetEffect[b] = EFFECT_PUT;
      }
      return;
    }
    // Empty hands: fetch the task object, or first open the way to it.
    const where = this.objectLoc[b * MAX_OBJECTS];
    const door = this.firstShutDoor(b, agentRoom, L.furnitureRoom[s * MAX_FURNITURE + where]);
    if (door < 0) {
      this.target[b] = where;
      this.targetEffect[b] = EFFECT_TAKE;
    } else if (this.doorState[b * MAX_DOORS + door] === DOOR_CLOSED) {
      this.target[b] = MAX_FURNITURE + door;
      this.targetEffect[b] = EFFECT_OPEN;
    } else {
      // Locked: the key lies on the near side (generator), on a receptacle (keys are never put down).
      this.target[b] = this.objectLoc[b * MAX_OBJECTS + 1];
      this.targetEffect[b] = EFFECT_TAKE;
    }
  }

  /** First door that is not open on the way from room `from` to room `to` (rooms form a chain), or −1. */
  private firstShutDoor(b: number, from: number, to: number): number {
    const doors = b * MAX_DOORS;
    if (to > from) {
      for (let d = from; d < to; d++) if (this.doorState[doors + d] !== DOOR_OPEN) return d;
    } else {
      for (let d = from - 1; d >= to; d--) if (this.doorState[doors + d] !== DOOR_OPEN) return d;
    }
    return -1;
  }

  /** Sets entry `index` of the one-hot group starting at `base` to `value`, clearing the entry set before. */
  private setHot(array: Float32Array, base: number, b: number, group: number, index: number, value: 0 | 1): void {
    const h = b * HOT_GROUPS + group;
    array[base + this.hot[h]] = 0;
    array[base + index] = value;
    this.hot[h] = index;
  }

  /** Recomputes mask, effects, target, oracle action, features and state key of episode b. */
  private update(b: number): void {
    const L = this.layouts;
    const s = this.slot[b];
    this.chooseTarget(b, s);
    const W = L.width[s];
    const here = this.agent[b];
    const cellBase = s * MAX_CELLS;
    const held = this.carried[b];
    const holdsKey = held >= 0 && L.objectKind[s * MAX_OBJECTS + held] === OBJECT_KEY;
    const holdsThing = held >= 0 && !holdsKey;
    const heldFlags = holdsThing ? this.objectFlags[b * MAX_OBJECTS + held] : 0;
    const target = this.target[b];
    const targetEffect = this.targetEffect[b];
    const distBase = (s * MAX_LANDMARKS + (target < 0 ? 0 : target)) * MAX_CELLS;
    const targetCell =
      target < 0 ? -1 : target >= MAX_FURNITURE ? L.doorCell[s * MAX_DOORS + target - MAX_FURNITURE] : L.furnitureCell[s * MAX_FURNITURE + target];
    const dHere = target < 0 ? 0 : L.dist[distBase + here];

    const obs = this.obs;
    const o = b * OBS_DIM;
    const feats = this.actionFeatures;
    const mask = this.actionMask;
    const mBase = b * NUM_ACTIONS;
    let oracle = -1;

    for (let dir = 0; dir < 4; dir++) {
      const nb = dir === 0 ? here - W : dir === 1 ? here + 1 : dir === 2 ? here + W : here - 1;
      const tile = L.tile[cellBase + nb];
      const ref = L.cellRef[cellBase + nb];
      let cls = CELL_WALL;
      let walkable = false;
      let effect = EFFECT_NONE;
      if (tile === TILE_FLOOR) {
        cls = CELL_FLOOR;
        walkable = true;
      } else if (tile === TILE_DOOR) {
        const state = this.doorState[b * MAX_DOORS + ref];
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
          else if (held < 0 && this.furnitureLoad[b * MAX_FURNITURE + ref] > 0) effect = EFFECT_TAKE;
        }
      }
      this.setHot(obs, o + OBS_NEIGHBOURS + dir * CELL_CLASSES, b, HOT_NEIGHBOUR + dir, cls, 1);

      // Move in this direction (type and direction entries were written by the constructor).
      const mv = (mBase + dir) * ACTION_DIM;
      this.setHot(feats, mv + ACT_CELL, b, HOT_CELL + dir, cls, 1);
      mask[mBase + dir] = walkable ? 1 : 0;
      feats[mv + ACT_ADMISSIBLE] = walkable ? 1 : 0;
      let closer = 0;
      let farther = 0;
      if (walkable && target >= 0) {
        const dNext = L.dist[distBase + nb];
        if (dNext < dHere) {
          closer = 1;
          if (oracle < 0 && dHere > 0) oracle = dir;
        } else if (dNext > dHere) {
          farther = 1;
        }
      }
      feats[mv + ACT_CLOSER] = closer;
      feats[mv + ACT_FARTHER] = farther;

      // Interact in this direction.
      const ia = (mBase + INTERACT + dir) * ACTION_DIM;
      const admissible = effect !== EFFECT_NONE;
      this.setHot(feats, ia + ACT_CELL, b, HOT_CELL + INTERACT + dir, cls, 1);
      mask[mBase + INTERACT + dir] = admissible ? 1 : 0;
      this.effect[mBase + INTERACT + dir] = effect;
      feats[ia + ACT_ADMISSIBLE] = admissible ? 1 : 0;
      this.setHot(feats, ia + ACT_EFFECT, b, HOT_EFFECT + dir, admissible ? effect - 1 : 0, admissible ? 1 : 0);
      const touches = admissible && nb === targetCell;
      feats[ia + ACT_TOUCHES_TARGET] = touches ? 1 : 0;
      if (touches && dHere === 0 && effect === targetEffect) oracle = INTERACT + dir;
    }
    this.oracle[b] = oracle;

    // Observation (the fixed part was written at reset).
    const k = this.progress[b];
    const M = L.numMilestones[s];
    this.setHot(obs, o + OBS_NEXT, b, HOT_NEXT, k < M ? L.milestoneKind[s * MAX_MILESTONES + k] : 0, k < M ? 1 : 0);
    obs[o + OBS_PROGRESS] = k / M;
    this.setHot(obs, o + OBS_CARRY, b, HOT_CARRY, held < 0 ? 0 : holdsKey ? 1 : held === TASK_OBJECT ? 2 : 3, 1);
    const flags = this.objectFlags[b * MAX_OBJECTS];
    obs[o + OBS_OBJECT_FLAGS] = flags & FLAG_HOT ? 1 : 0;
    obs[o + OBS_OBJECT_FLAGS + 1] = flags & FLAG_COLD ? 1 : 0;
    obs[o + OBS_OBJECT_FLAGS + 2] = flags & FLAG_CLEAN ? 1 : 0;
    const t = L.treatment[s];
    obs[o + OBS_TREATED] = t === TREAT_NONE || (flags & TREATMENT_FLAG[t]) !== 0 ? 1 : 0;
    const hx = here % W;
    const hy = (here - hx) / W;
    const hasTarget = target >= 0;
    this.setHot(obs, o + OBS_TARGET_EFFECT, b, HOT_TARGET, hasTarget ? targetEffect - 1 : 0, hasTarget ? 1 : 0);
    const tx = targetCell % W;
    obs[o + OBS_TARGET_DX] = hasTarget ? (tx - hx) / 8 : 0;
    obs[o + OBS_TARGET_DY] = hasTarget ? ((targetCell - tx) / W - hy) / 8 : 0;
    obs[o + OBS_TARGET_DIST] = !hasTarget ? 0 : dHere >= 16 ? 1 : dHere / 16;
    obs[o + OBS_TARGET_ADJACENT] = hasTarget && dHere === 0 ? 1 : 0;
    this.setHot(obs, o + OBS_ROOM, b, HOT_ROOM, L.cellRoom[cellBase + here], 1);
    obs[o + OBS_X] = hx / W;
    obs[o + OBS_Y] = hy / L.height[s];
    obs[o + OBS_TIME] = this.steps[b] / this.maxSteps;

    this.stateKey[b] = this.hashState(b, s);
  }

  /** 32-bit hash of everything that defines the state within the task instance (not the step count). */
  private hashState(b: number, s: number): number {
    let h = Math.imul(this.layouts.seed[s] ^ 0x5bd1e995, HASH_M);
    h = Math.imul(h ^ (this.agent[b] | ((this.carried[b] & 0xff) << 8) | (this.progress[b] << 16)), HASH_M);
    h ^= h >>> 15;
    for (let d = 0; d < MAX_DOORS; d++) h = Math.imul(h ^ (this.doorState[b * MAX_DOORS + d] << (8 * d)), HASH_M);
    for (let i = 0; i < MAX_OBJECTS; i++) {
      const j = b * MAX_OBJECTS + i;
      h = Math.imul(h ^ (this.objectLoc[j] | (this.objectFlags[j] << 8) | (i << 16)), HASH_M);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return (h ^ (h >>> 13)) >>> 0;
  }
}

export const createGridHouse = (options: EnvOptions): GridHouse => new GridHouse(options);
export type { GridHouse };
