// TextHouse step of one episode (`textHouseStep`), the WGSL twin of envs/texthouse (commands.ts,
// milestones.ts, features.ts, the state key of state.ts) and envs/episode-book.ts `record`. With
// applyActions = 1 a live episode applies its command, Φ tests the task's next milestone (docs/maths.md
// §2), dropout hides it when its bit is set (§6), the episode ends on success or at the step limit; then
// mask, features and key are rewritten. Finished episodes only clear `milestone`, as on the CPU. With
// applyActions = 0 (after a reset uploaded from TypeScript) every episode's mask, features and key are
// written from scratch. Command features are refreshed incrementally, exactly as the CPU does, so the
// stale features of masked slots agree too. The state key is recomputed from the Zobrist tables (the
// CPU keeps the same XOR incrementally). The caller's sampler only picks admissible commands.
// Offsets: src/gpu/texthouse-step.ts (a test compares the tables).
// Imported by the per-step kernel texthouse-step and the whole-episode kernel texthouse-rollout.

import package::lib::env_step::{episodes, mask, obs, actionFeatures, e, ep, setEp, flag01, RecordFields, record};

// What a step needs of its kernel's uniforms.
struct TextHouseConfig {
  maxSteps: u32,
  numRec: u32,
  numObj: u32,
  numActions: u32,
  idleCommands: u32,
}

var<private> config: TextHouseConfig;
@group(0) @binding(1) var<storage, read> zobrist: array<u32>;

// ---- Episode record (u32 words) ----
const EPISODE_WORDS = 128u;
const E_NREC = 0u;
const E_NOBJ = 1u;
const E_FAMILY = 2u;
const E_TARGET_CATEGORY = 3u;
const E_NTARGETS = 4u;
const E_TARGET0 = 5u;
const E_TARGET1 = 6u;
const E_DEST = 7u;
const E_APPLIANCE = 8u;
const E_LAMP_REC = 9u;
const E_NMS = 10u;
const E_LOC = 11u;
const E_HELD = 12u;
const E_PROGRESS = 13u;
const E_N_EXPLORED = 14u;
const E_N_CLOSED = 15u;
const E_LAST_ACTION = 16u;
const E_DROPPED = 17u;
const E_STEPS = 18u;
const E_DONE = 19u;
const E_SUCCESS = 20u;
const E_MILESTONE = 21u;
const E_MILESTONES_REACHED = 22u;
const E_STATE_KEY = 23u;
const E_MS_KIND = 24u;
const E_REC_TYPE = 32u;
const E_REC_CLOSED = 48u;
const E_EXPLORED = 64u;
const E_OBJ_IS_TARGET = 80u;
const E_OBJ_LOC = 96u;
const E_OBJ_FLAGS = 112u;

// ---- Zobrist tables (words in `zobrist`) ----
const Z_LOC = 0u;
const Z_OBJ_LOC = 17u;
const Z_OBJ_FLAGS = 289u;
const Z_CLOSED = 417u;
const Z_EXPLORED = 433u;
const Z_PROGRESS = 449u;
const Z_REC_STRIDE = 17u; // ZOBRIST_MAX_REC + 1: object o at receptacle r is o · 17 + r, held r = 16

// ---- envs/texthouse/state.ts and vocabulary.ts ----
const START = 255u;
const NONE = 255u;
const HELD = 254u;
const S_OPEN = 0u;
const S_CLOSE = 1u;
const S_PUT = 2u;
const S_HEAT = 3u;
const S_COOL = 4u;
const S_CLEAN = 5u;
const S_USE = 6u;
const S_LOOK = 7u;
const S_INVENTORY = 8u;
const S_EXAMINE = 9u;
const R_FRIDGE = 3u;
const R_MICROWAVE = 4u;
const R_SINKBASIN = 5u;
const NUM_REC_TYPES = 10u;
const FLAG_CLEAN = 1u;
const FLAG_HOT = 2u;
const FLAG_COLD = 4u;
const V_GOTO = 0u;
const V_TAKE = 3u;
const M_FIND = 0u;
const M_TAKE = 1u;
const M_BRING = 2u;
const M_PROCESS = 3u;
const M_LIGHT = 4u;
const M_PLACE = 5u;
const M_FIND2 = 6u;
const M_TAKE2 = 7u;
const M_PLACE2 = 8u;

// ---- envs/texthouse/features.ts ----
const ACTION_DIM = 32u;
const A_REC_TYPE = 12u;
const A_DEST = 22u;
const A_APPLIANCE = 23u;
const A_UNEXPLORED = 24u;
const A_CLOSED = 25u;
const A_TARGET_SEEN = 26u;
const A_LAMP = 27u;
const A_OBJ_TARGET = 28u;
const A_OBJ_PLACED = 29u;
const A_OBJ_PROCESSED = 30u;
const A_BIAS = 31u;
const OBS_DIM = 60u;
const O_FAMILY = 0u;
const O_DONE = 6u;
const O_PROGRESS = 15u;
const O_LOC_TYPE = 16u;
const O_AT_START = 26u;
const O_HERE_DEST = 27u;
const O_HERE_APPLIANCE = 28u;
const O_HERE_CLOSED = 29u;
const O_HERE_LAMP = 30u;
const O_HERE_OPENABLE = 31u;
const O_HANDS_FREE = 32u;
const O_HOLD_TARGET = 33u;
const O_HOLD_OTHER = 34u;
const O_HELD_HOT = 35u;
const O_HELD_COLD = 36u;
const O_HELD_CLEAN = 37u;
const O_HELD_PROCESSED = 38u;
const O_TARGET_HERE = 39u;
const O_OBJECTS_HERE = 40u;
const O_PLACED = 41u;
const O_TARGET_KNOWN = 42u;
const O_EXPLORED = 43u;
const O_CLOSED_FRAC = 44u;
const O_DEST_CLOSED = 45u;
const O_DEST_TYPE = 46u;
const O_CATEGORY = 56u;

// REC_OPENABLE: cabinet, drawer, fridge, microwave (types 1 to 4)
fn recOpenable(t: u32) -> bool {
  return t >= 1u && t <= 4u;
}

// FAMILY_FLAG: pick 0, clean FLAG_CLEAN, heat FLAG_HOT, cool FLAG_COLD, light 0, pick-two 0
fn familyFlag() -> u32 {
  switch ep(E_FAMILY) {
    case 1u: { return FLAG_CLEAN; }
    case 2u: { return FLAG_HOT; }
    case 3u: { return FLAG_COLD; }
    default: { return 0u; }
  }
}

// FIXED_VERBS: open, close, put, heat, cool, clean, use, look, inventory, examine
fn fixedVerb(k: u32) -> u32 {
  return select(k + 1u, k + 2u, k >= S_PUT);
}

fn recClosed(r: u32) -> u32 {
  return ep(E_REC_CLOSED + r);
}

fn objLoc(o: u32) -> u32 {
  return ep(E_OBJ_LOC + o);
}

// milestones.ts needsTaking: target o is not lying finished at the destination
fn needsTaking(o: u32) -> bool {
  if (ep(E_OBJ_IS_TARGET + o) == 0u) {
    return false;
  }
  let dest = ep(E_DEST);
  if (dest == NONE || objLoc(o) != dest) {
    return true;
  }
  let flag = familyFlag();
  return flag != 0u && (ep(E_OBJ_FLAGS + o) & flag) == 0u;
}

fn wantedInView() -> bool {
  let loc = ep(E_LOC);
  if (loc == START || recClosed(loc) != 0u) {
    return false;
  }
  let t0 = ep(E_TARGET0);
  let t1 = ep(E_TARGET1);
  return (objLoc(t0) == loc && needsTaking(t0)) || (t1 != NONE && objLoc(t1) == loc && needsTaking(t1));
}

fn targetsPlaced() -> u32 {
  let t0 = ep(E_TARGET0);
  let t1 = ep(E_TARGET1);
  var n = 0u;
  if (!needsTaking(t0)) {
    n++;
  }
  if (t1 != NONE && !needsTaking(t1)) {
    n++;
  }
  return n;
}

fn holdingTarget() -> bool {
  let h = ep(E_HELD);
  return h != NONE && ep(E_OBJ_IS_TARGET + h) == 1u;
}

// milestones.ts milestoneHolds (docs/maths.md §2)
fn milestoneHolds(kind: u32) -> bool {
  switch kind {
    case M_FIND: { return wantedInView(); }
    case M_FIND2: { return wantedInView() && targetsPlaced() >= 1u; }
    case M_TAKE: { return holdingTarget(); }
    case M_BRING: { return holdingTarget() && ep(E_LOC) == ep(E_APPLIANCE); }
    case M_PROCESS: { return holdingTarget() && (ep(E_OBJ_FLAGS + ep(E_HELD)) & familyFlag()) != 0u; }
    case M_LIGHT: { return holdingTarget() && ep(E_LAST_ACTION) == config.numRec + config.numObj + S_USE; }
    case M_PLACE: { return targetsPlaced() >= 1u; }
    case M_TAKE2: { return holdingTarget() && targetsPlaced() >= 1u; }
    case M_PLACE2: { return targetsPlaced() >= 2u; }
    default: { return false; }
  }
}

// commands.ts writeMask
fn writeMask(b: u32) {
  let R = config.numRec;
  let O = config.numObj;
  let base = b * config.numActions;
  let loc = ep(E_LOC);
  let held = ep(E_HELD);
  let atStart = loc == START;
  for (var r = 0u; r < R; r++) {
    mask[base + r] = select(0u, 1u, r < ep(E_NREC) && r != loc);
  }
  var recType = NONE;
  var closed = 1u;
  if (!atStart) {
    recType = ep(E_REC_TYPE + loc);
    closed = recClosed(loc);
  }
  let reach = !atStart && closed == 0u;
  let free = held == NONE;
  let takeOk = reach && free;
  for (var o = 0u; o < O; o++) {
    mask[base + R + o] = select(0u, 1u, takeOk && o < ep(E_NOBJ) && objLoc(o) == loc);
  }
  let f = base + R + O;
  let openable = !atStart && recOpenable(recType);
  mask[f + S_OPEN] = select(0u, 1u, openable && closed == 1u);
  mask[f + S_CLOSE] = select(0u, 1u, openable && closed == 0u);
  mask[f + S_PUT] = select(0u, 1u, reach && !free);
  mask[f + S_HEAT] = select(0u, 1u, !free && recType == R_MICROWAVE);
  mask[f + S_COOL] = select(0u, 1u, !free && recType == R_FRIDGE);
  mask[f + S_CLEAN] = select(0u, 1u, !free && recType == R_SINKBASIN);
  mask[f + S_USE] = select(0u, 1u, !atStart && loc == ep(E_LAMP_REC));
  let idle = config.idleCommands;
  mask[f + S_LOOK] = idle;
  mask[f + S_INVENTORY] = idle;
  mask[f + S_EXAMINE] = select(idle, 0u, atStart);
}

// commands.ts see: the receptacle's contents come into view
fn see(r: u32) {
  if (recClosed(r) == 0u && ep(E_EXPLORED + r) == 0u) {
    setEp(E_EXPLORED + r, 1u);
    setEp(E_N_EXPLORED, ep(E_N_EXPLORED) + 1u);
  }
}

// commands.ts applyCommand (a is admissible)
fn applyCommand(a: u32) {
  let R = config.numRec;
  let O = config.numObj;
  let loc = ep(E_LOC);
  let held = ep(E_HELD);
  setEp(E_LAST_ACTION, a);
  if (a < R) {
    setEp(E_LOC, a);
    see(a);
    return;
  }
  if (a < R + O) {
    setEp(E_OBJ_LOC + a - R, HELD);
    setEp(E_HELD, a - R);
    return;
  }
  switch a - R - O {
    case S_OPEN: {
      setEp(E_REC_CLOSED + loc, 0u);
      setEp(E_N_CLOSED, ep(E_N_CLOSED) - 1u);
      see(loc);
    }
    case S_CLOSE: {
      setEp(E_REC_CLOSED + loc, 1u);
      setEp(E_N_CLOSED, ep(E_N_CLOSED) + 1u);
    }
    case S_PUT: {
      setEp(E_OBJ_LOC + held, loc);
      setEp(E_HELD, NONE);
    }
    case S_HEAT: {
      setEp(E_OBJ_FLAGS + held, (ep(E_OBJ_FLAGS + held) | FLAG_HOT) & ~FLAG_COLD);
    }
    case S_COOL: {
      setEp(E_OBJ_FLAGS + held, (ep(E_OBJ_FLAGS + held) | FLAG_COLD) & ~FLAG_HOT);
    }
    case S_CLEAN: {
      setEp(E_OBJ_FLAGS + held, ep(E_OBJ_FLAGS + held) | FLAG_CLEAN);
    }
    default: {} // use lamp, look, inventory, examine: no state change
  }
}

// state.ts computeKey
fn stateKey() -> u32 {
  let loc = ep(E_LOC);
  var k = zobrist[Z_LOC + select(loc, 16u, loc == START)] ^ zobrist[Z_PROGRESS + ep(E_PROGRESS)];
  for (var r = 0u; r < ep(E_NREC); r++) {
    if (recClosed(r) != 0u) {
      k ^= zobrist[Z_CLOSED + r];
    }
    if (ep(E_EXPLORED + r) != 0u) {
      k ^= zobrist[Z_EXPLORED + r];
    }
  }
  for (var o = 0u; o < ep(E_NOBJ); o++) {
    let l = objLoc(o);
    k ^= zobrist[Z_OBJ_LOC + o * Z_REC_STRIDE + select(l, 16u, l == HELD)] ^ zobrist[Z_OBJ_FLAGS + o * 8u + ep(E_OBJ_FLAGS + o)];
  }
  return k;
}

// features.ts targetSeenAt
fn targetSeenAt(r: u32) -> bool {
  if (ep(E_EXPLORED + r) == 0u) {
    return false;
  }
  let t0 = ep(E_TARGET0);
  let t1 = ep(E_TARGET1);
  return (objLoc(t0) == r && needsTaking(t0)) || (t1 != NONE && objLoc(t1) == r && needsTaking(t1));
}

// features.ts writeRec
fn writeRec(off: u32, r: u32) {
  let recType = ep(E_REC_TYPE + r);
  for (var t = 0u; t < NUM_REC_TYPES; t++) {
    actionFeatures[off + A_REC_TYPE + t] = flag01(t == recType);
  }
  actionFeatures[off + A_DEST] = flag01(r == ep(E_DEST));
  actionFeatures[off + A_APPLIANCE] = flag01(r == ep(E_APPLIANCE));
  actionFeatures[off + A_UNEXPLORED] = f32(1u - ep(E_EXPLORED + r));
  actionFeatures[off + A_CLOSED] = f32(recClosed(r));
  actionFeatures[off + A_TARGET_SEEN] = flag01(targetSeenAt(r));
  actionFeatures[off + A_LAMP] = flag01(r == ep(E_LAMP_REC));
}

// features.ts writeObj
fn writeObj(off: u32, o: u32) {
  if (o == NONE) {
    actionFeatures[off + A_OBJ_TARGET] = 0.0;
    actionFeatures[off + A_OBJ_PLACED] = 0.0;
    actionFeatures[off + A_OBJ_PROCESSED] = 0.0;
    return;
  }
  let isTarget = ep(E_OBJ_IS_TARGET + o);
  let flag = familyFlag();
  actionFeatures[off + A_OBJ_TARGET] = f32(isTarget);
  actionFeatures[off + A_OBJ_PLACED] = flag01(isTarget != 0u && !needsTaking(o));
  actionFeatures[off + A_OBJ_PROCESSED] = flag01(flag != 0u && (ep(E_OBJ_FLAGS + o) & flag) != 0u);
}

// features.ts refreshActionFeatures: the slots a step may have changed
fn refreshActionFeatures(b: u32) {
  let loc = ep(E_LOC);
  if (loc == START) {
    return;
  }
  let R = config.numRec;
  let O = config.numObj;
  let slot0 = b * config.numActions;
  writeRec((slot0 + loc) * ACTION_DIM, loc);
  for (var o = 0u; o < ep(E_NOBJ); o++) {
    if (mask[slot0 + R + o] != 0u) {
      let off = (slot0 + R + o) * ACTION_DIM;
      writeRec(off, loc);
      writeObj(off, o);
    }
  }
  let fb = slot0 + R + O;
  let held = ep(E_HELD);
  if (mask[fb + S_OPEN] != 0u) {
    writeRec((fb + S_OPEN) * ACTION_DIM, loc);
  }
  if (mask[fb + S_CLOSE] != 0u) {
    writeRec((fb + S_CLOSE) * ACTION_DIM, loc);
  }
  if (mask[fb + S_EXAMINE] != 0u) {
    writeRec((fb + S_EXAMINE) * ACTION_DIM, loc);
  }
  if (mask[fb + S_USE] != 0u) {
    writeRec((fb + S_USE) * ACTION_DIM, loc);
    writeObj((fb + S_USE) * ACTION_DIM, held);
  }
  if (held != NONE) {
    for (var k = S_PUT; k <= S_CLEAN; k++) {
      if (mask[fb + k] != 0u) {
        writeRec((fb + k) * ACTION_DIM, loc);
        writeObj((fb + k) * ACTION_DIM, held);
      }
    }
  }
}

// features.ts initActionFeatures: every slot from scratch
fn initActionFeatures(b: u32) {
  let R = config.numRec;
  let O = config.numObj;
  let A = config.numActions;
  for (var i = b * A * ACTION_DIM; i < (b + 1u) * A * ACTION_DIM; i++) {
    actionFeatures[i] = 0.0;
  }
  for (var a = 0u; a < A; a++) {
    let off = (b * A + a) * ACTION_DIM;
    var verb = V_GOTO;
    if (a >= R + O) {
      verb = fixedVerb(a - R - O);
    } else if (a >= R) {
      verb = V_TAKE;
    }
    actionFeatures[off + verb] = 1.0;
    actionFeatures[off + A_BIAS] = 1.0;
    if (a < ep(E_NREC)) {
      writeRec(off, a);
    }
  }
  refreshActionFeatures(b);
}

// features.ts writeObs
fn writeObs(b: u32) {
  let off = b * OBS_DIM;
  for (var i = 0u; i < OBS_DIM; i++) {
    obs[off + i] = 0.0;
  }
  let family = ep(E_FAMILY);
  obs[off + O_FAMILY + family] = 1.0;
  let progress = ep(E_PROGRESS);
  for (var k = 0u; k < progress; k++) {
    obs[off + O_DONE + ep(E_MS_KIND + k)] = 1.0;
  }
  obs[off + O_PROGRESS] = f32(progress) / f32(ep(E_NMS));

  let loc = ep(E_LOC);
  let nRec = ep(E_NREC);
  if (loc == START) {
    obs[off + O_AT_START] = 1.0;
  } else {
    let recType = ep(E_REC_TYPE + loc);
    let closed = recClosed(loc);
    obs[off + O_LOC_TYPE + recType] = 1.0;
    obs[off + O_HERE_DEST] = flag01(loc == ep(E_DEST));
    obs[off + O_HERE_APPLIANCE] = flag01(loc == ep(E_APPLIANCE));
    obs[off + O_HERE_CLOSED] = f32(closed);
    obs[off + O_HERE_LAMP] = flag01(loc == ep(E_LAMP_REC));
    obs[off + O_HERE_OPENABLE] = flag01(recOpenable(recType));
    if (closed == 0u) {
      var n = 0u;
      for (var o = 0u; o < ep(E_NOBJ); o++) {
        if (objLoc(o) == loc) {
          n++;
        }
      }
      obs[off + O_OBJECTS_HERE] = min(1.0, f32(n) / 4.0);
    }
  }

  let held = ep(E_HELD);
  if (held == NONE) {
    obs[off + O_HANDS_FREE] = 1.0;
  } else {
    let flags = ep(E_OBJ_FLAGS + held);
    let flag = familyFlag();
    obs[off + select(O_HOLD_OTHER, O_HOLD_TARGET, ep(E_OBJ_IS_TARGET + held) != 0u)] = 1.0;
    obs[off + O_HELD_HOT] = flag01((flags & FLAG_HOT) != 0u);
    obs[off + O_HELD_COLD] = flag01((flags & FLAG_COLD) != 0u);
    obs[off + O_HELD_CLEAN] = flag01((flags & FLAG_CLEAN) != 0u);
    obs[off + O_HELD_PROCESSED] = flag01(flag != 0u && (flags & flag) != 0u);
  }
  obs[off + O_TARGET_HERE] = flag01(wantedInView());
  obs[off + O_PLACED] = f32(targetsPlaced()) / f32(ep(E_NTARGETS));

  var known = false;
  for (var t = 0u; t < 2u; t++) {
    let o = select(ep(E_TARGET1), ep(E_TARGET0), t == 0u);
    if (o == NONE) {
      continue;
    }
    let l = objLoc(o);
    if (l == HELD || (needsTaking(o) && ep(E_EXPLORED + l) != 0u)) {
      known = true;
    }
  }
  obs[off + O_TARGET_KNOWN] = flag01(known);
  obs[off + O_EXPLORED] = f32(ep(E_N_EXPLORED)) / f32(nRec);
  obs[off + O_CLOSED_FRAC] = f32(ep(E_N_CLOSED)) / f32(nRec);

  let dest = ep(E_DEST);
  if (dest != NONE) {
    obs[off + O_DEST_CLOSED] = f32(recClosed(dest));
    obs[off + O_DEST_TYPE + ep(E_REC_TYPE + dest)] = 1.0;
  }
  obs[off + O_CATEGORY + ep(E_TARGET_CATEGORY)] = 1.0;
}

// One step of episode b: with apply, a live episode plays `action` (admissible) and is recorded; a
// finished one only clears its milestone. Then (and always without apply) its mask, features, observation
// and state key are rewritten. Called by one invocation per episode (texthouse-step) or by one invocation
// of the episode's workgroup (texthouse-rollout).
fn textHouseStep(b: u32, action: u32, apply: bool, settings: TextHouseConfig) {
  config = settings;
  e = b * EPISODE_WORDS;
  if (apply) {
    if (ep(E_DONE) != 0u) {
      setEp(E_MILESTONE, 0u);
      return;
    }
    applyCommand(action);
    let k = ep(E_PROGRESS);
    // envs/episode-book.ts record, on this environment's record fields (lib/env_step.wgsl)
    let fields = RecordFields(E_STEPS, E_MILESTONE, E_PROGRESS, E_DROPPED, E_MILESTONES_REACHED, E_NMS, E_DONE, E_SUCCESS);
    record(fields, k < ep(E_NMS) && milestoneHolds(ep(E_MS_KIND + k)), config.maxSteps);
    writeMask(b);
    refreshActionFeatures(b);
  } else {
    writeMask(b);
    initActionFeatures(b);
  }
  writeObs(b);
  setEp(E_STATE_KEY, stateKey());
}
