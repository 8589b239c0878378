/**
 * TextHouse vocabulary: receptacle types, object types, task families, verbs and milestone kinds, after
 * ALFWorld's. Everything is a small integer so that episode state lives in typed arrays; names and
 * properties are looked up in the tables below only when text is built or a layout is generated.
 */

// ---- Receptacle types -------------------------------------------------------------------------------
const R_COUNTERTOP = 0;
export const R_CABINET = 1;
export const R_DRAWER = 2;
export const R_FRIDGE = 3;
export const R_MICROWAVE = 4;
export const R_SINKBASIN = 5;
const R_SHELF = 6;
const R_DININGTABLE = 7;
const R_DESK = 8;
const R_SIDETABLE = 9;
export const NUM_REC_TYPES = 10;

export const REC_NAMES = ['countertop', 'cabinet', 'drawer', 'fridge', 'microwave', 'sinkbasin', 'shelf', 'diningtable', 'desk', 'sidetable'] as const;
/** 1 where the receptacle opens and closes (and starts closed). */
export const REC_OPENABLE = Uint8Array.from([0, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
/** Preposition used when putting something there ("in" containers and basins, "on" surfaces). */
export const REC_IN = Uint8Array.from([0, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
/** Surfaces a desk lamp can stand on. */
export const LAMP_HOLDERS: readonly number[] = [R_DESK, R_SIDETABLE];
/** Types a layout is filled with beyond the ones its task needs (appliances are added by the task). */
export const FILLER_OPEN: readonly number[] = [R_COUNTERTOP, R_SHELF, R_DININGTABLE, R_DESK, R_SIDETABLE];
export const FILLER_CLOSED: readonly number[] = [R_CABINET, R_DRAWER];

// ---- Task families (ALFWorld's six) -------------------------------------------------------------------
export const F_PICK = 0;
export const F_CLEAN = 1;
export const F_HEAT = 2;
export const F_COOL = 3;
export const F_LIGHT = 4;
export const F_PICKTWO = 5;
export const NUM_FAMILIES = 6;
export const FAMILY_NAMES = [
  'pick_and_place',
  'pick_clean_then_place',
  'pick_heat_then_place',
  'pick_cool_then_place',
  'look_at_obj_in_light',
  'pick_two_obj_and_place',
] as const;
/** Appliance a family needs (receptacle type), or -1. The light family needs a lamp instead. */
export const FAMILY_APPLIANCE = Int8Array.from([-1, R_SINKBASIN, R_MICROWAVE, R_FRIDGE, -1, -1]);

// ---- Object state flags (bits of objFlags) ------------------------------------------------------------
export const FLAG_CLEAN = 1;
export const FLAG_HOT = 2;
export const FLAG_COLD = 4;
/** The flag a family's processing step sets (0: no processing). */
export const FAMILY_FLAG = Uint8Array.from([0, FLAG_CLEAN, FLAG_HOT, FLAG_COLD, 0, 0]);

// ---- Object types ---------------------------------------------------------------------------------------
// Capability bits: which families may use the type as their target (pick and pick-two take any type).
const CAN_CLEAN = 1;
const CAN_HEAT = 2;
const CAN_COOL = 4;
const CAN_LIGHT = 8;

/** Coarse categories, encoded in the observation so a policy can tell what kind of thing it is after. */
const CAT_FOOD = 0;
const CAT_DISH = 1;
const CAT_UTENSIL = 2;
const CAT_ITEM = 3;
export const NUM_CATEGORIES = 4;

interface ObjectKind {
  name: string;
  category: number;
  can: number;
  /** Receptacle types it is plausibly found on at the start (flavour; the generator falls back to any). */
  homes: readonly number[];
}

const KITCHEN = [R_COUNTERTOP, R_DININGTABLE, R_CABINET, R_FRIDGE, R_SHELF];
const DRAWERS = [R_DRAWER, R_COUNTERTOP, R_DININGTABLE, R_CABINET, R_SINKBASIN];
const ROOM = [R_DESK, R_SIDETABLE, R_SHELF, R_DRAWER, R_CABINET, R_DININGTABLE];

const OBJECT_KINDS: readonly ObjectKind[] = [
  { name: 'apple', category: CAT_FOOD, can: CAN_CLEAN | CAN_HEAT | CAN_COOL, homes: KITCHEN },
  { name: 'potato', category: CAT_FOOD, can: CAN_CLEAN | CAN_HEAT | CAN_COOL, homes: KITCHEN },
  { name: 'tomato', category: CAT_FOOD, can: CAN_CLEAN | CAN_HEAT | CAN_COOL, homes: KITCHEN },
  { name: 'egg', category: CAT_FOOD, can: CAN_CLEAN | CAN_HEAT, homes: KITCHEN },
  { name: 'bread', category: CAT_FOOD, can: CAN_HEAT | CAN_COOL, homes: KITCHEN },
  { name: 'lettuce', category: CAT_FOOD, can: CAN_CLEAN | CAN_COOL, homes: KITCHEN },
  { name: 'mug', category: CAT_DISH, can: CAN_CLEAN | CAN_HEAT | CAN_COOL | CAN_LIGHT, homes: KITCHEN },
  { name: 'cup', category: CAT_DISH, can: CAN_CLEAN | CAN_HEAT | CAN_COOL, homes: KITCHEN },
  { name: 'plate', category: CAT_DISH, can: CAN_CLEAN | CAN_HEAT | CAN_COOL, homes: KITCHEN },
  { name: 'bowl', category: CAT_DISH, can: CAN_CLEAN | CAN_LIGHT, homes: KITCHEN },
  { name: 'knife', category: CAT_UTENSIL, can: CAN_CLEAN, homes: DRAWERS },
  { name: 'spoon', category: CAT_UTENSIL, can: CAN_CLEAN, homes: DRAWERS },
  { name: 'fork', category: CAT_UTENSIL, can: CAN_CLEAN, homes: DRAWERS },
  { name: 'book', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'cellphone', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'keychain', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'creditcard', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'pen', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'alarmclock', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'vase', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
  { name: 'remotecontrol', category: CAT_ITEM, can: CAN_LIGHT, homes: ROOM },
];
export const NUM_OBJ_TYPES = OBJECT_KINDS.length;
export const OBJ_NAMES: readonly string[] = OBJECT_KINDS.map((k) => k.name);
export const OBJ_CATEGORY = Uint8Array.from(OBJECT_KINDS.map((k) => k.category));
export const OBJ_HOMES: readonly (readonly number[])[] = OBJECT_KINDS.map((k) => k.homes);

const FAMILY_NEEDS = [0, CAN_CLEAN, CAN_HEAT, CAN_COOL, CAN_LIGHT, 0];
/** Object types that may be the target of each family. */
export const FAMILY_TARGET_TYPES: readonly (readonly number[])[] = FAMILY_NEEDS.map((need) =>
  OBJECT_KINDS.flatMap((k, i) => ((k.can & need) === need ? [i] : [])),
);

// ---- Verbs (the first block of every action feature vector) --------------------------------------------
export const V_GOTO = 0;
export const V_OPEN = 1;
export const V_CLOSE = 2;
export const V_TAKE = 3;
export const V_PUT = 4;
export const V_HEAT = 5;
export const V_COOL = 6;
export const V_CLEAN = 7;
export const V_USE = 8;
export const V_LOOK = 9;
export const V_INVENTORY = 10;
export const V_EXAMINE = 11;
export const NUM_VERBS = 12;

// ---- Milestone kinds (what Φ checks for the next milestone of a task) ------------------------------------
/** A wanted target is in view (at the agent's receptacle, which is open). */
export const M_FIND = 0;
/** The agent holds a target. */
export const M_TAKE = 1;
/** The agent holds a target at the family's appliance (or at the lamp). */
export const M_BRING = 2;
/** The held target has the family's flag (cleaned, heated, cooled). */
export const M_PROCESS = 3;
/** The agent used the desk lamp while holding a target (success of the light family). */
export const M_LIGHT = 4;
/** A target (processed if the family requires) is in the destination. */
export const M_PLACE = 5;
/** Pick-two: a target not yet in the destination is in view while the other one is there. */
export const M_FIND2 = 6;
/** Pick-two: the agent holds a target while one already is in the destination. */
export const M_TAKE2 = 7;
/** Pick-two: both targets are in the destination (success). */
export const M_PLACE2 = 8;
export const NUM_MILESTONE_KINDS = 9;
export const MILESTONE_KIND_NAMES = ['find', 'take', 'bring', 'process', 'light', 'place', 'find2', 'take2', 'place2'] as const;
