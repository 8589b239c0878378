// GridHouse step of one episode (`gridHouseStep`), the WGSL twin of envs/gridhouse (transitions.ts,
// milestones.ts, features.ts, state.ts `hash`) and envs/episode-book.ts `record`. With apply
// a live episode applies its action, Φ tests the task's next milestone (docs/maths.md §2), dropout
// hides it when its bit is set (§6), the episode ends on success or at the step limit; then mask,
// features and state key are rewritten. Finished episodes only clear `milestone`, as on the CPU. Without
// apply (after a reset uploaded from TypeScript) every episode's mask, features and key are
// written from its state. Features are written in full (the CPU writes them incrementally; the values
// are the same). The caller's sampler only picks admissible actions, so none is checked here.
// Offsets: src/gpu/gridhouse-step.ts (a test compares the tables). Imported by the per-step kernel
// gridhouse-step and the whole-episode kernel gridhouse-rollout.

import package::lib::env_step::{episodes, mask, obs, actionFeatures, e, ep, setEp, RecordFields, record};

// What a step needs of its kernel's uniforms.
struct GridHouseConfig {
  maxSteps: u32,
  maxMilestones: u32,
}

var<private> config: GridHouseConfig;
@group(0) @binding(1) var<storage, read> layouts: array<u32>;

// ---- Layout records (bytes) ----
// The table starts with a word per task slot: the first byte of the slot's record. A record is the
// fixed fields below, then its cell arrays of C = width × height bytes each (LAYOUT_CELL_ARRAYS of
// them): the tiles, the cells' furniture or door index, the cells' rooms, then one distance field per
// landmark. Records sized by their own grid keep the upload to what the tasks use.
const LAYOUT_CELL_ARRAYS = 13u;
const L_SEED = 0u;
const L_WIDTH = 4u;
const L_HEIGHT = 5u;
const L_START_CELL = 6u;
const L_NUM_DOORS = 7u;
const L_KEY_DOOR = 8u;
const L_NUM_OBJECTS = 9u;
const L_TREATMENT = 10u;
const L_DESTINATION = 11u;
const L_APPLIANCE = 12u;
const L_NUM_MILESTONES = 13u;
const L_KEY_COLOUR = 14u;
const L_FURNITURE_KIND = 15u;
const L_FURNITURE_CELL = 23u;
const L_FURNITURE_ROOM = 31u;
const L_DOOR_CELL = 39u;
const L_DOOR_INITIAL = 41u;
const L_OBJECT_KIND = 43u;
const L_OBJECT_START = 48u;
const L_MILESTONE_KIND = 53u;
const L_MILESTONE_ARG = 59u;
const L_CELLS = 65u;

// ---- Episode record (u32 words) ----
const EPISODE_WORDS = 44u;
const E_SLOT = 0u;
const E_AGENT = 1u;
const E_CARRIED = 2u;
const E_PROGRESS = 3u;
const E_NUM_MILESTONES = 4u;
const E_DROPPED = 5u;
const E_STEPS = 6u;
const E_DONE = 7u;
const E_SUCCESS = 8u;
const E_MILESTONE = 9u;
const E_MILESTONES_REACHED = 10u;
const E_STATE_KEY = 11u;
const E_OBJECT_LOC = 12u;
const E_OBJECT_FLAGS = 17u;
const E_FURNITURE_LOAD = 22u;
const E_DOOR_STATE = 30u;
const E_FACED = 32u;
const E_EFFECT = 36u;

// ---- envs/gridhouse/catalog.ts ----
const MAX_FURNITURE = 8u;
const MAX_DOORS = 2u;
const MAX_OBJECTS = 5u;
const MAX_LANDMARKS = 10u;
const NUM_ACTIONS = 8u;
const INTERACT = 4u;
const TASK_OBJECT = 0u;
const OBJECT_KEY = 8u;
const TABLE = 3u;
const NONE = 255u; // carried: nothing in hand
const LOC_CARRIED = 254u;
const LOC_GONE = 255u;
const TILE_FLOOR = 0u;
const TILE_DOOR = 2u;
const TILE_FURNITURE = 3u;
const DOOR_OPEN = 0u;
const DOOR_CLOSED = 1u;
const FLAG_HOT = 1u;
const FLAG_COLD = 2u;
const FLAG_CLEAN = 4u;
const TREAT_NONE = 0u;
const MS_TAKE_KEY = 0u;
const MS_UNLOCK = 1u;
const MS_OPEN = 2u;
const MS_TAKE_OBJECT = 3u;
const MS_TREAT = 4u;
const MS_PLACE = 5u;
const EFFECT_NONE = 0u;
const EFFECT_TAKE = 1u;
const EFFECT_PUT = 2u;
const EFFECT_HEAT = 3u;
const EFFECT_COOL = 4u;
const EFFECT_CLEAN = 5u;
const EFFECT_OPEN = 6u;
const EFFECT_UNLOCK = 7u;
const CELL_FLOOR = 0u;
const CELL_WALL = 1u;
const CELL_OPEN_DOOR = 2u;
const CELL_CLOSED_DOOR = 3u;
const CELL_LOCKED_DOOR = 4u;
const CELL_APPLIANCE = 5u;
const CELL_RECEPTACLE = 6u;
const CELL_CLASSES = 7u;
const HASH_M = 0x9e3779b1u;

// ---- envs/gridhouse/features.ts ----
const OBS_DIM = 94u;
const ACTION_DIM = 33u;
const OBS_OBJECT = 0u;
const OBS_TREATMENT = 8u;
const OBS_DEST = 12u;
const OBS_KEY_COLOUR = 15u;
const OBS_LENGTH = 19u;
const OBS_BIAS = 20u;
const OBS_DONE = 21u;
const OBS_PROGRESS = 27u;
const OBS_CARRY = 28u;
const OBS_OBJECT_FLAGS = 32u;
const OBS_TREATED = 35u;
const OBS_NEIGHBOURS = 36u;
const OBS_DOORS = 64u;
const OBS_LANDMARKS = 70u;
const OBS_ROOM = 88u;
const OBS_X = 91u;
const OBS_Y = 92u;
const OBS_TIME = 93u;
const ACT_MOVE = 0u;
const ACT_INTERACT = 1u;
const ACT_DIRECTION = 2u;
const ACT_CELL = 6u;
const ACT_EFFECT = 13u;
const ACT_TOWARDS = 20u;
const ACT_TOUCHES = 26u;
const ACT_ADMISSIBLE = 32u;
const NUM_LANDMARK_KINDS = 6u;
const LM_OBJECT = 0u;
const LM_KEY = 1u;
const LM_KEY_DOOR = 2u;
const LM_OTHER_DOOR = 3u;
const LM_APPLIANCE = 4u;
const LM_DESTINATION = 5u;
const DIST_SCALE = 16u;
const UNREACHABLE = 255u;

// The invocation's layout (its episode record starts at `e`, lib/env_step.wgsl).
var<private> lbase: u32; // first byte of the layout record
var<private> lcells: u32; // its cells, width × height: the length of each cell array

fn lbyte(off: u32) -> u32 {
  let i = lbase + off;
  return (layouts[i >> 2u] >> ((i & 3u) * 8u)) & 0xffu;
}

fn tileOf(cell: u32) -> u32 {
  return lbyte(L_CELLS + cell);
}

fn cellRefOf(cell: u32) -> u32 {
  return lbyte(L_CELLS + lcells + cell);
}

fn cellRoomOf(cell: u32) -> u32 {
  return lbyte(L_CELLS + 2u * lcells + cell);
}

// Where landmark l's distance field starts in the record.
fn distField(l: u32) -> u32 {
  return L_CELLS + (3u + l) * lcells;
}

fn treatmentFlag(t: u32) -> u32 {
  // TREATMENT_FLAG = [0, FLAG_HOT, FLAG_COLD, FLAG_CLEAN]
  return select(0u, 1u << (t - 1u), t > 0u);
}

fn holdsKey() -> bool {
  let held = ep(E_CARRIED);
  return held != NONE && lbyte(L_OBJECT_KIND + held) == OBJECT_KEY;
}

fn neighbour(cell: u32, dir: u32) -> u32 {
  let w = lbyte(L_WIDTH);
  switch dir {
    case 0u: { return cell - w; }
    case 1u: { return cell + 1u; }
    case 2u: { return cell + w; }
    default: { return cell - 1u; }
  }
}

/** First door not open between room `fromRoom` and room `toRoom` (rooms form a chain), or −1. */
fn shutDoorBetween(fromRoom: u32, toRoom: u32) -> i32 {
  if (toRoom > fromRoom) {
    for (var d = fromRoom; d < toRoom; d++) {
      if (ep(E_DOOR_STATE + d) != DOOR_OPEN) {
        return i32(d);
      }
    }
  } else {
    for (var d = i32(fromRoom) - 1; d >= i32(toRoom); d--) {
      if (ep(E_DOOR_STATE + u32(d)) != DOOR_OPEN) {
        return d;
      }
    }
  }
  return -1;
}

// transitions.ts writeAffordances
fn writeAffordances(b: u32) {
  let here = ep(E_AGENT);
  let held = ep(E_CARRIED);
  let key = holdsKey();
  let holdsThing = held != NONE && !key;
  var heldFlags = 0u;
  if (holdsThing) {
    heldFlags = ep(E_OBJECT_FLAGS + held);
  }
  for (var dir = 0u; dir < 4u; dir++) {
    let nb = neighbour(here, dir);
    let tile = tileOf(nb);
    let index = cellRefOf(nb);
    var cls = CELL_WALL;
    var walkable = false;
    var effect = EFFECT_NONE;
    if (tile == TILE_FLOOR) {
      cls = CELL_FLOOR;
      walkable = true;
    } else if (tile == TILE_DOOR) {
      let state = ep(E_DOOR_STATE + index);
      if (state == DOOR_OPEN) {
        cls = CELL_OPEN_DOOR;
        walkable = true;
      } else if (state == DOOR_CLOSED) {
        cls = CELL_CLOSED_DOOR;
        effect = EFFECT_OPEN;
      } else {
        cls = CELL_LOCKED_DOOR;
        if (key && index == lbyte(L_KEY_DOOR)) {
          effect = EFFECT_UNLOCK;
        }
      }
    } else if (tile == TILE_FURNITURE) {
      let kind = lbyte(L_FURNITURE_KIND + index);
      if (kind < TABLE) {
        cls = CELL_APPLIANCE;
        // APPLIANCE_FLAG[kind] = 1 << kind; APPLIANCE_EFFECT[kind] = EFFECT_HEAT + kind
        if (holdsThing && (heldFlags & (1u << kind)) == 0u) {
          effect = EFFECT_HEAT + kind;
        }
      } else {
        cls = CELL_RECEPTACLE;
        if (holdsThing) {
          effect = EFFECT_PUT;
        } else if (held == NONE && ep(E_FURNITURE_LOAD + index) > 0u) {
          effect = EFFECT_TAKE;
        }
      }
    }
    setEp(E_FACED + dir, cls);
    mask[b * NUM_ACTIONS + dir] = select(0u, 1u, walkable);
    mask[b * NUM_ACTIONS + INTERACT + dir] = select(0u, 1u, effect != EFFECT_NONE);
    setEp(E_EFFECT + dir, 0u);
    setEp(E_EFFECT + INTERACT + dir, effect);
  }
}

// transitions.ts applyAction (a is admissible)
fn applyAction(a: u32) {
  let cell = neighbour(ep(E_AGENT), a & 3u);
  if (a < INTERACT) {
    setEp(E_AGENT, cell);
    return;
  }
  let index = cellRefOf(cell);
  let held = ep(E_CARRIED);
  switch ep(E_EFFECT + a) {
    case EFFECT_OPEN: {
      setEp(E_DOOR_STATE + index, DOOR_OPEN);
    }
    case EFFECT_UNLOCK: {
      // The key stays in the lock: hands are free again.
      setEp(E_DOOR_STATE + index, DOOR_OPEN);
      setEp(E_OBJECT_LOC + held, LOC_GONE);
      setEp(E_CARRIED, NONE);
    }
    case EFFECT_HEAT: {
      setEp(E_OBJECT_FLAGS + held, (ep(E_OBJECT_FLAGS + held) & ~FLAG_COLD) | FLAG_HOT);
    }
    case EFFECT_COOL: {
      setEp(E_OBJECT_FLAGS + held, (ep(E_OBJECT_FLAGS + held) & ~FLAG_HOT) | FLAG_COLD);
    }
    case EFFECT_CLEAN: {
      setEp(E_OBJECT_FLAGS + held, ep(E_OBJECT_FLAGS + held) | FLAG_CLEAN);
    }
    case EFFECT_PUT: {
      setEp(E_OBJECT_LOC + held, index);
      setEp(E_FURNITURE_LOAD + index, ep(E_FURNITURE_LOAD + index) + 1u);
      setEp(E_CARRIED, NONE);
    }
    case EFFECT_TAKE: {
      // Lowest-numbered object on the receptacle: the task object first, then the key.
      let no = lbyte(L_NUM_OBJECTS);
      for (var o = 0u; o < no; o++) {
        if (ep(E_OBJECT_LOC + o) == index) {
          setEp(E_OBJECT_LOC + o, LOC_CARRIED);
          setEp(E_FURNITURE_LOAD + index, ep(E_FURNITURE_LOAD + index) - 1u);
          setEp(E_CARRIED, o);
          break;
        }
      }
    }
    default: {}
  }
}

// milestones.ts nextMilestoneHolds (docs/maths.md §2)
fn nextMilestoneHolds() -> bool {
  let k = ep(E_PROGRESS);
  let arg = lbyte(L_MILESTONE_ARG + k);
  let t = lbyte(L_TREATMENT);
  let flags = ep(E_OBJECT_FLAGS + TASK_OBJECT);
  switch lbyte(L_MILESTONE_KIND + k) {
    case MS_TAKE_KEY: { return holdsKey(); }
    case MS_UNLOCK, MS_OPEN: { return ep(E_DOOR_STATE + arg) == DOOR_OPEN; }
    case MS_TAKE_OBJECT: { return ep(E_CARRIED) == TASK_OBJECT; }
    case MS_TREAT: { return (flags & treatmentFlag(t)) != 0u; }
    case MS_PLACE: {
      return ep(E_OBJECT_LOC + TASK_OBJECT) == lbyte(L_DESTINATION) && (t == TREAT_NONE || (flags & treatmentFlag(t)) != 0u);
    }
    default: { return false; }
  }
}

// state.ts hash: the 32-bit state key
fn stateKey() -> u32 {
  var h = (lbyte(L_SEED) | (lbyte(L_SEED + 1u) << 8u) | (lbyte(L_SEED + 2u) << 16u) | (lbyte(L_SEED + 3u) << 24u));
  h = (h ^ 0x5bd1e995u) * HASH_M;
  h = (h ^ (ep(E_AGENT) | (ep(E_CARRIED) << 8u) | (ep(E_PROGRESS) << 16u))) * HASH_M;
  h ^= h >> 15u;
  for (var d = 0u; d < MAX_DOORS; d++) {
    h = (h ^ (ep(E_DOOR_STATE + d) << (8u * d))) * HASH_M;
  }
  for (var i = 0u; i < MAX_OBJECTS; i++) {
    h = (h ^ (ep(E_OBJECT_LOC + i) | (ep(E_OBJECT_FLAGS + i) << 8u) | (i << 16u))) * HASH_M;
    h ^= h >> 13u;
  }
  h = (h ^ (h >> 16u)) * 0x85ebca6bu;
  return h ^ (h >> 13u);
}

// features.ts locateLandmarks: per landmark kind, its distance field's first byte (−1 if absent or out
// of reach), its cell (−1 if absent) and the walking distance from the agent.
var<private> lmField: array<i32, 6>;
var<private> lmCell: array<i32, 6>;
var<private> dHere: array<u32, 6>;

fn locateLandmarks() {
  var lm: array<i32, 6>;
  let objectAt = ep(E_OBJECT_LOC + TASK_OBJECT);
  lm[LM_OBJECT] = select(-1, i32(objectAt), objectAt < MAX_FURNITURE);
  let hasKey = lbyte(L_NUM_OBJECTS) > 1u && lbyte(L_OBJECT_KIND + 1u) == OBJECT_KEY;
  let keyAt = select(255u, ep(E_OBJECT_LOC + 1u), hasKey);
  lm[LM_KEY] = select(-1, i32(keyAt), keyAt < MAX_FURNITURE);
  let keyDoor = lbyte(L_KEY_DOOR);
  lm[LM_KEY_DOOR] = select(-1, i32(MAX_FURNITURE + keyDoor), keyDoor < MAX_DOORS);
  lm[LM_OTHER_DOOR] = -1;
  for (var d = 0u; d < lbyte(L_NUM_DOORS); d++) {
    if (d != keyDoor) {
      lm[LM_OTHER_DOOR] = i32(MAX_FURNITURE + d);
      break;
    }
  }
  lm[LM_APPLIANCE] = select(-1, i32(lbyte(L_APPLIANCE)), lbyte(L_TREATMENT) != TREAT_NONE);
  lm[LM_DESTINATION] = i32(lbyte(L_DESTINATION));
  let here = ep(E_AGENT);
  let room = cellRoomOf(here);
  for (var k = 0u; k < NUM_LANDMARK_KINDS; k++) {
    let l = lm[k];
    if (l < 0) {
      lmCell[k] = -1;
      lmField[k] = -1;
      dHere[k] = UNREACHABLE;
      continue;
    }
    var reachable: bool;
    if (u32(l) >= MAX_FURNITURE) {
      let d = u32(l) - MAX_FURNITURE;
      lmCell[k] = i32(lbyte(L_DOOR_CELL + d));
      reachable = shutDoorBetween(room, d) < 0 || shutDoorBetween(room, d + 1u) < 0;
    } else {
      lmCell[k] = i32(lbyte(L_FURNITURE_CELL + u32(l)));
      reachable = shutDoorBetween(room, lbyte(L_FURNITURE_ROOM + u32(l))) < 0;
    }
    lmField[k] = select(-1, i32(distField(u32(l))), reachable);
    dHere[k] = select(UNREACHABLE, lbyte(distField(u32(l)) + here), reachable);
  }
}

// features.ts start + write, in full
fn writeFeatures(b: u32) {
  locateLandmarks();
  let o = b * OBS_DIM;
  for (var i = 0u; i < OBS_DIM; i++) {
    obs[o + i] = 0.0;
  }
  // The task (fixed for the episode).
  obs[o + OBS_OBJECT + lbyte(L_OBJECT_KIND + TASK_OBJECT)] = 1.0;
  let t = lbyte(L_TREATMENT);
  obs[o + OBS_TREATMENT + t] = 1.0;
  obs[o + OBS_DEST + lbyte(L_FURNITURE_KIND + lbyte(L_DESTINATION)) - TABLE] = 1.0;
  if (lbyte(L_KEY_DOOR) < MAX_DOORS) {
    obs[o + OBS_KEY_COLOUR + lbyte(L_KEY_COLOUR)] = 1.0;
  }
  let M = lbyte(L_NUM_MILESTONES);
  obs[o + OBS_LENGTH] = f32(M) / f32(config.maxMilestones);
  obs[o + OBS_BIAS] = 1.0;

  let here = ep(E_AGENT);
  let held = ep(E_CARRIED);
  let W = lbyte(L_WIDTH);
  for (var dir = 0u; dir < 4u; dir++) {
    let nb = neighbour(here, dir);
    let cls = ep(E_FACED + dir);
    obs[o + OBS_NEIGHBOURS + dir * CELL_CLASSES + cls] = 1.0;

    // Move in this direction.
    let mv = (b * NUM_ACTIONS + dir) * ACTION_DIM;
    for (var i = 0u; i < ACTION_DIM; i++) {
      actionFeatures[mv + i] = 0.0;
    }
    let walkable = mask[b * NUM_ACTIONS + dir] == 1u;
    actionFeatures[mv + ACT_MOVE] = 1.0;
    actionFeatures[mv + ACT_DIRECTION + dir] = 1.0;
    actionFeatures[mv + ACT_CELL + cls] = 1.0;
    actionFeatures[mv + ACT_ADMISSIBLE] = select(0.0, 1.0, walkable);
    for (var k = 0u; k < NUM_LANDMARK_KINDS; k++) {
      var towards = 0.0;
      if (walkable && lmField[k] >= 0) {
        let dNext = lbyte(u32(lmField[k]) + nb);
        towards = select(select(0.0, -1.0, dNext > dHere[k]), 1.0, dNext < dHere[k]);
      }
      actionFeatures[mv + ACT_TOWARDS + k] = towards;
    }

    // Interact in this direction.
    let ia = (b * NUM_ACTIONS + INTERACT + dir) * ACTION_DIM;
    for (var i = 0u; i < ACTION_DIM; i++) {
      actionFeatures[ia + i] = 0.0;
    }
    let admissible = mask[b * NUM_ACTIONS + INTERACT + dir] == 1u;
    actionFeatures[ia + ACT_INTERACT] = 1.0;
    actionFeatures[ia + ACT_DIRECTION + dir] = 1.0;
    actionFeatures[ia + ACT_CELL + cls] = 1.0;
    actionFeatures[ia + ACT_ADMISSIBLE] = select(0.0, 1.0, admissible);
    if (admissible) {
      actionFeatures[ia + ACT_EFFECT + ep(E_EFFECT + INTERACT + dir) - 1u] = 1.0;
      for (var k = 0u; k < NUM_LANDMARK_KINDS; k++) {
        actionFeatures[ia + ACT_TOUCHES + k] = select(0.0, 1.0, i32(nb) == lmCell[k]);
      }
    }
  }

  // The changing observation.
  let progress = ep(E_PROGRESS);
  for (var j = 0u; j < progress; j++) {
    obs[o + OBS_DONE + lbyte(L_MILESTONE_KIND + j)] = 1.0;
  }
  obs[o + OBS_PROGRESS] = f32(progress) / f32(M);
  var carry = 3u;
  if (held == NONE) {
    carry = 0u;
  } else if (holdsKey()) {
    carry = 1u;
  } else if (held == TASK_OBJECT) {
    carry = 2u;
  }
  obs[o + OBS_CARRY + carry] = 1.0;
  let flags = ep(E_OBJECT_FLAGS + TASK_OBJECT);
  obs[o + OBS_OBJECT_FLAGS] = select(0.0, 1.0, (flags & FLAG_HOT) != 0u);
  obs[o + OBS_OBJECT_FLAGS + 1u] = select(0.0, 1.0, (flags & FLAG_COLD) != 0u);
  obs[o + OBS_OBJECT_FLAGS + 2u] = select(0.0, 1.0, (flags & FLAG_CLEAN) != 0u);
  obs[o + OBS_TREATED] = select(0.0, 1.0, t == TREAT_NONE || (flags & treatmentFlag(t)) != 0u);
  for (var d = 0u; d < lbyte(L_NUM_DOORS) && d < MAX_DOORS; d++) {
    obs[o + OBS_DOORS + d * 3u + ep(E_DOOR_STATE + d)] = 1.0;
  }
  for (var k = 0u; k < NUM_LANDMARK_KINDS; k++) {
    let base = o + OBS_LANDMARKS + 3u * k;
    let dist = dHere[k];
    obs[base] = select(0.0, 1.0, lmCell[k] >= 0);
    obs[base + 1u] = select(f32(dist) / f32(DIST_SCALE), 1.0, dist >= DIST_SCALE);
    obs[base + 2u] = select(0.0, 1.0, dist == 0u);
  }
  let hx = here % W;
  obs[o + OBS_ROOM + cellRoomOf(here)] = 1.0;
  obs[o + OBS_X] = f32(hx) / f32(W);
  obs[o + OBS_Y] = f32((here - hx) / W) / f32(lbyte(L_HEIGHT));
  obs[o + OBS_TIME] = f32(ep(E_STEPS)) / f32(config.maxSteps);
}

// One step of episode b: with apply, a live episode plays `action` (admissible) and is recorded; a
// finished one only clears its milestone. Then (and always without apply) its mask, features and state
// key are rewritten. Called by one invocation per episode (gridhouse-step) or by one invocation of the
// episode's workgroup (gridhouse-rollout).
fn gridHouseStep(b: u32, action: u32, apply: bool, settings: GridHouseConfig) {
  config = settings;
  e = b * EPISODE_WORDS;
  lbase = layouts[episodes[e + E_SLOT]];
  lcells = lbyte(L_WIDTH) * lbyte(L_HEIGHT);
  if (apply) {
    if (ep(E_DONE) != 0u) {
      setEp(E_MILESTONE, 0u);
      return;
    }
    applyAction(action);
    // envs/episode-book.ts record, on this environment's record fields (lib/env_step.wgsl)
    let fields = RecordFields(E_STEPS, E_MILESTONE, E_PROGRESS, E_DROPPED, E_MILESTONES_REACHED, E_NUM_MILESTONES, E_DONE, E_SUCCESS);
    record(fields, nextMilestoneHolds(), config.maxSteps);
  }
  writeAffordances(b);
  writeFeatures(b);
  setEp(E_STATE_KEY, stateKey());
}
