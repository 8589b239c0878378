/**
 * GridHouse episode state: the task instances (a LayoutPool, one instance per distinct task seed) and
 * every changing field of B episodes in flat typed arrays (episode b's object o at b·MAX_OBJECTS + o),
 * plus the 32-bit state key. Allocated once per environment; reset and step rewrite it in place.
 * Transitions live in transitions.ts, Φ in milestones.ts, policy inputs in features.ts.
 */
import type { Horizon } from '../types.ts';
import { DOOR_OPEN, MAX_DOORS, MAX_FURNITURE, MAX_OBJECTS, NUM_ACTIONS, OBJECT_KEY } from './catalog.ts';
import { LayoutPool } from './layout.ts';

/** Object location codes besides a furniture index. */
export const LOC_CARRIED = 254;
export const LOC_GONE = 255; // a key left in its lock

const HASH_M = 0x9e3779b1;

export class GridHouseState {
  readonly batchSize: number;
  readonly horizon: Horizon;
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
  /** Milestones of each episode's task. */
  readonly numMilestones: Uint8Array;
  /** B × 4: CELL_* class of the cell north / east / south / west of the agent (transitions.ts). */
  readonly faced: Uint8Array;
  /** B × NUM_ACTIONS: EFFECT_* of the interaction in that direction (moves: 0) (transitions.ts). */
  readonly effect: Uint8Array;

  constructor(batchSize: number, horizon: Horizon) {
    const B = batchSize;
    this.batchSize = B;
    this.horizon = horizon;
    this.layouts = new LayoutPool(B);
    this.slot = new Int32Array(B);
    this.agent = new Uint8Array(B);
    this.carried = new Int8Array(B);
    this.objectLoc = new Uint8Array(B * MAX_OBJECTS);
    this.objectFlags = new Uint8Array(B * MAX_OBJECTS);
    this.furnitureLoad = new Uint8Array(B * MAX_FURNITURE);
    this.doorState = new Uint8Array(B * MAX_DOORS);
    this.progress = new Uint8Array(B);
    this.numMilestones = new Uint8Array(B);
    this.faced = new Uint8Array(B * 4);
    this.effect = new Uint8Array(B * NUM_ACTIONS);
  }

  /** Generates one task instance per distinct seed (a GRPO group of G equal seeds shares one) and assigns slots. */
  loadTasks(taskSeeds: ArrayLike<number>): void {
    const slotOfSeed = new Map<number, number>();
    for (let b = 0; b < this.batchSize; b++) {
      const seed = taskSeeds[b];
      let s = slotOfSeed.get(seed);
      if (s === undefined) {
        s = slotOfSeed.size;
        this.layouts.generate(s, seed, this.horizon);
        slotOfSeed.set(seed, s);
      }
      this.slot[b] = s;
    }
  }

  /** Puts episode b at the start of its task instance: agent, objects, doors, progress. */
  startEpisode(b: number): void {
    const L = this.layouts;
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
    this.numMilestones[b] = L.numMilestones[s];
  }

  /** Whether episode b holds the key. */
  holdsKey(b: number): boolean {
    const held = this.carried[b];
    return held >= 0 && this.layouts.objectKind[this.slot[b] * MAX_OBJECTS + held] === OBJECT_KEY;
  }

  /** First door that is not open between room `from` and room `to` of episode b (rooms form a chain), or −1. */
  shutDoorBetween(b: number, from: number, to: number): number {
    const doors = b * MAX_DOORS;
    if (to > from) {
      for (let d = from; d < to; d++) if (this.doorState[doors + d] !== DOOR_OPEN) return d;
    } else {
      for (let d = from - 1; d >= to; d--) if (this.doorState[doors + d] !== DOOR_OPEN) return d;
    }
    return -1;
  }

  /** Cell next to `cell` in direction dir (0 north, 1 east, 2 south, 3 west) in episode b's house. */
  neighbour(b: number, cell: number, dir: number): number {
    const W = this.layouts.width[this.slot[b]];
    return dir === 0 ? cell - W : dir === 1 ? cell + 1 : dir === 2 ? cell + W : cell - 1;
  }

  /** 32-bit hash of everything that defines the state within the task instance (not the step count). */
  hash(b: number): number {
    let h = Math.imul(this.layouts.seed[this.slot[b]] ^ 0x5bd1e995, HASH_M);
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
