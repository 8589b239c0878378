/**
 * GridHouse task instances: the procedural generator and the pool of typed arrays that holds them.
 *
 * A task seed fixes everything here (rooms, doors, furniture, objects, task, milestones), so the G
 * episodes of a GRPO group, which share a seed, share one instance. Rooms stand in a row (or a column)
 * and each door joins room d to room d+1, so the rooms form a chain: the path between two cells of the
 * same stretch of open rooms never crosses a door, which lets one distance field per landmark (each
 * furniture piece and each door), computed once with every door passable, serve the policy features and
 * the oracle for the whole episode. Nothing is ever left on the floor (objects live on receptacles or in
 * the agent's hand), so obstacles never move and those fields stay exact.
 */
import { Rng, mixSeeds } from '../../src/prng.ts';
import type { Horizon } from '../types.ts';
import {
  APPLIANCES,
  DOOR_LOCKED,
  FOOD_KINDS,
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
  OBJECT_KEY,
  RECEPTACLES,
  ROOM_NAMES,
  TILE_DOOR,
  TILE_FLOOR,
  TILE_FURNITURE,
  TILE_WALL,
  TREATABLE,
  TREATMENT_APPLIANCE,
  TREAT_NONE,
  isAppliance,
} from './catalog.ts';
import { HORIZON_SPECS, ROLE_APPLIANCE, ROLE_DEST, ROLE_KEY, ROLE_OTHER_APPLIANCE, ROLE_SOURCE, type HorizonSpec } from './horizons.ts';

const UNREACHABLE = 255;
const HORIZON_SALT: Record<Horizon, number> = { tiny: 0x7101, short: 0x5402, medium: 0x3e03, long: 0x1404 };

/** Structure-of-arrays storage for up to `capacity` task instances; slot s owns stride-s ranges. */
export class LayoutPool {
  readonly capacity: number;
  readonly seed: Uint32Array;
  readonly width: Uint8Array;
  readonly height: Uint8Array;
  readonly transposed: Uint8Array;
  /** Per cell: TILE_* class. */
  readonly tile: Uint8Array;
  /** Per cell: furniture or door index for those tiles. */
  readonly cellRef: Uint8Array;
  /** Per cell: room index for floor and furniture cells; door d counts as room d (the rooms form a chain). */
  readonly cellRoom: Uint8Array;
  readonly numRooms: Uint8Array;
  /** Per room: index into ROOM_NAMES. */
  readonly roomName: Uint8Array;
  readonly startCell: Uint8Array;
  readonly numFurniture: Uint8Array;
  readonly furnitureKind: Uint8Array;
  readonly furnitureCell: Uint8Array;
  readonly furnitureRoom: Uint8Array;
  readonly numDoors: Uint8Array;
  readonly doorCell: Uint8Array;
  readonly doorInitial: Uint8Array;
  /** Key colour of the (single) locked door, index into KEY_COLOURS. */
  readonly keyColour: Uint8Array;
  /** Door the key opens (255 when no door is locked). */
  readonly keyDoor: Uint8Array;
  readonly numObjects: Uint8Array;
  readonly objectKind: Uint8Array;
  /** Furniture index each object starts on. */
  readonly objectStart: Uint8Array;
  readonly treatment: Uint8Array;
  readonly destination: Uint8Array;
  /** Furniture index of the appliance the treatment needs (unused without one). */
  readonly appliance: Uint8Array;
  readonly numMilestones: Uint8Array;
  readonly milestoneKind: Uint8Array;
  /** Door index for UNLOCK / OPEN milestones. */
  readonly milestoneArg: Uint8Array;
  /** Per landmark (furniture f, then door MAX_FURNITURE + d) per cell: moves to reach a cell beside it. */
  readonly dist: Uint8Array;

  private readonly queue = new Uint8Array(MAX_CELLS);

  constructor(capacity: number) {
    this.capacity = capacity;
    const n = capacity;
    this.seed = new Uint32Array(n);
    this.width = new Uint8Array(n);
    this.height = new Uint8Array(n);
    this.transposed = new Uint8Array(n);
    this.tile = new Uint8Array(n * MAX_CELLS);
    this.cellRef = new Uint8Array(n * MAX_CELLS);
    this.cellRoom = new Uint8Array(n * MAX_CELLS);
    this.numRooms = new Uint8Array(n);
    this.roomName = new Uint8Array(n * MAX_ROOMS);
    this.startCell = new Uint8Array(n);
    this.numFurniture = new Uint8Array(n);
    this.furnitureKind = new Uint8Array(n * MAX_FURNITURE);
    this.furnitureCell = new Uint8Array(n * MAX_FURNITURE);
    this.furnitureRoom = new Uint8Array(n * MAX_FURNITURE);
    this.numDoors = new Uint8Array(n);
    this.doorCell = new Uint8Array(n * MAX_DOORS);
    this.doorInitial = new Uint8Array(n * MAX_DOORS);
    this.keyColour = new Uint8Array(n);
    this.keyDoor = new Uint8Array(n);
    this.numObjects = new Uint8Array(n);
    this.objectKind = new Uint8Array(n * MAX_OBJECTS);
    this.objectStart = new Uint8Array(n * MAX_OBJECTS);
    this.treatment = new Uint8Array(n);
    this.destination = new Uint8Array(n);
    this.appliance = new Uint8Array(n);
    this.numMilestones = new Uint8Array(n);
    this.milestoneKind = new Uint8Array(n * MAX_MILESTONES);
    this.milestoneArg = new Uint8Array(n * MAX_MILESTONES);
    this.dist = new Uint8Array(n * MAX_LANDMARKS * MAX_CELLS);
  }

  /** Generates the task instance of `seed` at `horizon` into slot `s`. */
  generate(s: number, seed: number, horizon: Horizon): void {
    const spec = HORIZON_SPECS[horizon];
    if (spec.rooms > MAX_ROOMS) throw new Error('GridHouse: horizon spec exceeds MAX_ROOMS');
    const rng = new Rng(mixSeeds(seed >>> 0, HORIZON_SALT[horizon]));
    this.seed[s] = seed >>> 0;
    // Placement can fail (a piece walls off part of a room); redraw furniture until it does not.
    for (let attempt = 0; attempt < 64; attempt++) {
      if (this.tryGenerate(s, spec, rng)) {
        this.computeDistances(s);
        return;
      }
    }
    throw new Error(`GridHouse: could not generate a layout for seed ${seed} at horizon ${horizon}`);
  }

  private tryGenerate(s: number, spec: HorizonSpec, rng: Rng): boolean {
    const transposed = rng.nextInt(2);
    const rooms = spec.rooms;
    const widths = new Array<number>(MAX_ROOMS).fill(0);
    let along = 1;
    for (let r = 0; r < rooms; r++) {
      widths[r] = spec.width[0] + rng.nextInt(spec.width[1] - spec.width[0] + 1);
      along += widths[r] + 1;
    }
    const interior = spec.height[0] + rng.nextInt(spec.height[1] - spec.height[0] + 1);
    const across = interior + 2;
    const W = transposed ? across : along;
    const H = transposed ? along : across;
    if (W * H > MAX_CELLS) throw new Error('GridHouse: layout exceeds MAX_CELLS');
    this.width[s] = W;
    this.height[s] = H;
    this.transposed[s] = transposed;
    // (u along the row of rooms, v across it) → cell index
    const cellOf = (u: number, v: number): number => (transposed ? u * W + v : v * W + u);

    const base = s * MAX_CELLS;
    this.tile.fill(TILE_WALL, base, base + MAX_CELLS);
    this.cellRef.fill(0, base, base + MAX_CELLS);
    this.cellRoom.fill(255, base, base + MAX_CELLS);
    const roomStart = new Array<number>(MAX_ROOMS).fill(0);
    let u0 = 1;
    for (let r = 0; r < rooms; r++) {
      roomStart[r] = u0;
      for (let u = u0; u < u0 + widths[r]; u++) {
        for (let v = 1; v <= interior; v++) {
          const c = base + cellOf(u, v);
          this.tile[c] = TILE_FLOOR;
          this.cellRoom[c] = r;
        }
      }
      u0 += widths[r] + 1;
    }
    this.numRooms[s] = rooms;
    const names = rng.shuffle(Array.from(ROOM_NAMES, (_, i) => i));
    for (let r = 0; r < MAX_ROOMS; r++) this.roomName[s * MAX_ROOMS + r] = names[r];

    // Doors in the wall between room d and d+1.
    const nd = spec.doors.length;
    this.numDoors[s] = nd;
    this.keyDoor[s] = 255;
    for (let d = 0; d < nd; d++) {
      const cell = cellOf(roomStart[d] + widths[d], 1 + rng.nextInt(interior));
      this.doorCell[s * MAX_DOORS + d] = cell;
      this.doorInitial[s * MAX_DOORS + d] = spec.doors[d];
      this.tile[base + cell] = TILE_DOOR;
      this.cellRef[base + cell] = d;
      this.cellRoom[base + cell] = d;
      if (spec.doors[d] === DOOR_LOCKED) this.keyDoor[s] = d;
    }
    this.keyColour[s] = rng.nextInt(KEY_COLOURS.length);

    // Agent starts anywhere in room 0.
    const start = cellOf(roomStart[0] + rng.nextInt(widths[0]), 1 + rng.nextInt(interior));
    this.startCell[s] = start;

    // Task: object kind and treatment.
    const objectKind = rng.nextInt(FOOD_KINDS);
    const treatOptions = TREATABLE[objectKind];
    const treatment = spec.treatment ? treatOptions[rng.nextInt(treatOptions.length)] : TREAT_NONE;
    this.treatment[s] = treatment;

    // Concrete furniture kinds for the roles: receptacle and appliance kinds are unique in a house.
    const receptacles = rng.shuffle([...RECEPTACLES]);
    const otherAppliances = rng.shuffle(APPLIANCES.filter((k) => k !== TREATMENT_APPLIANCE[treatment]));
    let nextReceptacle = 0;
    let nextAppliance = 0;
    let nf = 0;
    let source = -1;
    let keyHolder = -1;
    for (let r = 0; r < rooms; r++) {
      // Ring cells of the room (beside a wall), not beside a door, not the start cell.
      const ring: number[] = [];
      for (let u = roomStart[r]; u < roomStart[r] + widths[r]; u++) {
        for (let v = 1; v <= interior; v++) {
          const onRing = u === roomStart[r] || u === roomStart[r] + widths[r] - 1 || v === 1 || v === interior;
          const c = cellOf(u, v);
          if (!onRing || c === start || this.besideDoor(s, c, W)) continue;
          ring.push(c);
        }
      }
      rng.shuffle(ring);
      const roles = spec.furniture[r];
      if (roles.length > ring.length) return false;
      for (let i = 0; i < roles.length; i++) {
        const role = roles[i];
        let kind: number;
        if (role === ROLE_APPLIANCE) kind = TREATMENT_APPLIANCE[treatment];
        else if (role === ROLE_OTHER_APPLIANCE) kind = otherAppliances[nextAppliance++];
        else kind = receptacles[nextReceptacle++];
        const f = nf++;
        const cell = ring[i];
        this.furnitureKind[s * MAX_FURNITURE + f] = kind;
        this.furnitureCell[s * MAX_FURNITURE + f] = cell;
        this.furnitureRoom[s * MAX_FURNITURE + f] = r;
        this.tile[base + cell] = TILE_FURNITURE;
        this.cellRef[base + cell] = f;
        if (role === ROLE_SOURCE) source = f;
        else if (role === ROLE_DEST) this.destination[s] = f;
        else if (role === ROLE_KEY) keyHolder = f;
        else if (role === ROLE_APPLIANCE) this.appliance[s] = f;
      }
    }
    this.numFurniture[s] = nf;
    // A failed attempt is redrawn from scratch (tiles refilled) by the next one, from the same stream.
    if (!this.connected(s, start)) return false;

    // Objects: 0 = task object on the source, 1 = key (if a door is locked), then distractors.
    let no = 0;
    this.objectKind[s * MAX_OBJECTS + no] = objectKind;
    this.objectStart[s * MAX_OBJECTS + no] = source;
    no++;
    if (keyHolder >= 0) {
      this.objectKind[s * MAX_OBJECTS + no] = OBJECT_KEY;
      this.objectStart[s * MAX_OBJECTS + no] = keyHolder;
      no++;
    }
    const receptacleList: number[] = [];
    for (let f = 0; f < nf; f++) if (!isAppliance(this.furnitureKind[s * MAX_FURNITURE + f])) receptacleList.push(f);
    const distractorKinds = rng.shuffle(Array.from({ length: FOOD_KINDS }, (_, k) => k).filter((k) => k !== objectKind));
    for (let i = 0; i < spec.distractors; i++) {
      this.objectKind[s * MAX_OBJECTS + no] = distractorKinds[i];
      this.objectStart[s * MAX_OBJECTS + no] = receptacleList[rng.nextInt(receptacleList.length)];
      no++;
    }
    this.numObjects[s] = no;

    // Milestones in task order (docs/maths.md §2): doors first (a locked one needs its key), then the object.
    let nm = 0;
    const ms = s * MAX_MILESTONES;
    for (let d = 0; d < nd; d++) {
      if (spec.doors[d] === DOOR_LOCKED) {
        this.milestoneKind[ms + nm] = MS_TAKE_KEY;
        this.milestoneArg[ms + nm++] = d;
        this.milestoneKind[ms + nm] = MS_UNLOCK;
        this.milestoneArg[ms + nm++] = d;
      } else {
        this.milestoneKind[ms + nm] = MS_OPEN;
        this.milestoneArg[ms + nm++] = d;
      }
    }
    this.milestoneKind[ms + nm++] = MS_TAKE_OBJECT;
    if (treatment !== TREAT_NONE) this.milestoneKind[ms + nm++] = MS_TREAT;
    this.milestoneKind[ms + nm++] = MS_PLACE;
    if (nm !== spec.milestones) throw new Error('GridHouse: horizon spec milestone count mismatch');
    this.numMilestones[s] = nm;
    return true;
  }

  private besideDoor(s: number, c: number, W: number): boolean {
    const t = this.tile;
    const base = s * MAX_CELLS;
    return t[base + c - 1] === TILE_DOOR || t[base + c + 1] === TILE_DOOR || t[base + c - W] === TILE_DOOR || t[base + c + W] === TILE_DOOR;
  }

  /** Every floor cell reachable from the start (doors passable) and every piece of furniture beside one. */
  private connected(s: number, start: number): boolean {
    const base = s * MAX_CELLS;
    const W = this.width[s];
    const n = W * this.height[s];
    const seen = this.dist.subarray(s * MAX_LANDMARKS * MAX_CELLS, s * MAX_LANDMARKS * MAX_CELLS + MAX_CELLS);
    seen.fill(0);
    const q = this.queue;
    let head = 0;
    let tail = 0;
    q[tail++] = start;
    seen[start] = 1;
    let reached = 1;
    while (head < tail) {
      const c = q[head++];
      for (let k = 0; k < 4; k++) {
        const nb = k === 0 ? c - W : k === 1 ? c + 1 : k === 2 ? c + W : c - 1;
        const t = this.tile[base + nb];
        if (seen[nb] || (t !== TILE_FLOOR && t !== TILE_DOOR)) continue;
        seen[nb] = 1;
        q[tail++] = nb;
        reached++;
      }
    }
    let walkable = 0;
    for (let c = 0; c < n; c++) {
      const t = this.tile[base + c];
      if (t === TILE_FLOOR || t === TILE_DOOR) walkable++;
      if (t === TILE_FURNITURE) {
        if (!(seen[c - 1] || seen[c + 1] || seen[c - W] || seen[c + W])) return false;
      }
    }
    return reached === walkable;
  }

  /** One multi-source BFS per landmark, from the walkable cells beside it, doors passable. */
  private computeDistances(s: number): void {
    const base = s * MAX_CELLS;
    const W = this.width[s];
    const n = W * this.height[s]; // cells past n are never read
    for (let l = 0; l < MAX_LANDMARKS; l++) {
      const isDoor = l >= MAX_FURNITURE;
      const idx = isDoor ? l - MAX_FURNITURE : l;
      if (isDoor ? idx >= this.numDoors[s] : idx >= this.numFurniture[s]) continue;
      const off = (s * MAX_LANDMARKS + l) * MAX_CELLS;
      this.dist.fill(UNREACHABLE, off, off + n);
      const target = isDoor ? this.doorCell[s * MAX_DOORS + idx] : this.furnitureCell[s * MAX_FURNITURE + idx];
      const q = this.queue;
      let head = 0;
      let tail = 0;
      for (let k = 0; k < 4; k++) {
        const nb = k === 0 ? target - W : k === 1 ? target + 1 : k === 2 ? target + W : target - 1;
        if (nb < 0 || nb >= MAX_CELLS) continue;
        const t = this.tile[base + nb];
        if (t !== TILE_FLOOR && t !== TILE_DOOR) continue;
        this.dist[off + nb] = 0;
        q[tail++] = nb;
      }
      while (head < tail) {
        const c = q[head++];
        const dc = this.dist[off + c] + 1;
        for (let k = 0; k < 4; k++) {
          const nb = k === 0 ? c - W : k === 1 ? c + 1 : k === 2 ? c + W : c - 1;
          const t = this.tile[base + nb];
          if ((t !== TILE_FLOOR && t !== TILE_DOOR) || this.dist[off + nb] <= dc) continue;
          this.dist[off + nb] = dc;
          q[tail++] = nb;
        }
      }
    }
  }
}
