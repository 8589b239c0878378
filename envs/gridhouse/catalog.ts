/**
 * GridHouse's fixed vocabulary: furniture kinds, object kinds, treatments, milestone kinds, their names
 * and the size caps every typed array is laid out with. Pure data, shared by the generator, the
 * simulator and the text renderer, so a name or a cap is written once.
 */

// ---- Size caps (per layout / per episode); typed arrays are strided by these. ----
/** Cells per layout: positions fit in a byte. Generated houses stay within it (checked). */
export const MAX_CELLS = 256;
export const MAX_FURNITURE = 8;
export const MAX_DOORS = 2;
/** Objects per layout: slot 0 is always the task object, slot 1 the key when there is one. */
export const MAX_OBJECTS = 5;
export const MAX_ROOMS = 3;
export const MAX_MILESTONES = 6;
/** Distance fields are kept for every furniture piece and every door. */
export const MAX_LANDMARKS = MAX_FURNITURE + MAX_DOORS;
export const TASK_OBJECT = 0;

// ---- Tiles ----
export const TILE_FLOOR = 0;
export const TILE_WALL = 1;
export const TILE_DOOR = 2;
export const TILE_FURNITURE = 3;

// ---- Doors ----
export const DOOR_OPEN = 0;
export const DOOR_CLOSED = 1;
export const DOOR_LOCKED = 2;

// ---- Furniture: appliances (use on a carried object) and receptacles (put on / take from). ----
const MICROWAVE = 0;
const FRIDGE = 1;
const SINK = 2;
export const TABLE = 3;
const COUNTER = 4;
const SHELF = 5;
export const FURNITURE_NAMES = ['microwave', 'fridge', 'sink', 'table', 'counter', 'shelf'] as const;
/** One letter per furniture kind for the ASCII map. */
export const FURNITURE_GLYPHS = 'MFSTCH';
export const RECEPTACLES = [TABLE, COUNTER, SHELF] as const;
export const APPLIANCES = [MICROWAVE, FRIDGE, SINK] as const;
export function isAppliance(kind: number): boolean {
  return kind <= SINK;
}

// ---- Treatments: what an appliance does to the carried object (bit flags on the object). ----
export const TREAT_NONE = 0;
const TREAT_HEAT = 1;
const TREAT_COOL = 2;
const TREAT_CLEAN = 3;
export const TREATMENT_VERBS = ['', 'heat', 'cool', 'clean'] as const;
export const TREATMENT_ADJECTIVES = ['', 'hot', 'cold', 'clean'] as const;
export const FLAG_HOT = 1;
export const FLAG_COLD = 2;
export const FLAG_CLEAN = 4;
/** Object flag a treatment sets (index = treatment). */
export const TREATMENT_FLAG = [0, FLAG_HOT, FLAG_COLD, FLAG_CLEAN] as const;
/** Appliance kind that performs a treatment (index = treatment); an appliance kind is its treatment − 1. */
export const TREATMENT_APPLIANCE = [-1, MICROWAVE, FRIDGE, SINK] as const;

// ---- Objects ----
export const OBJECT_NAMES = ['apple', 'potato', 'egg', 'bread', 'mug', 'plate', 'tomato', 'lettuce', 'key'] as const;
export const OBJECT_KEY = 8;
/** Task-object kinds (everything but the key). */
export const FOOD_KINDS = 8;
/** Treatments that make sense for each object kind (a task never asks to heat a plate). */
export const TREATABLE: readonly (readonly number[])[] = [
  [TREAT_HEAT, TREAT_COOL, TREAT_CLEAN], // apple
  [TREAT_HEAT, TREAT_CLEAN], // potato
  [TREAT_HEAT, TREAT_COOL], // egg
  [TREAT_HEAT], // bread
  [TREAT_HEAT, TREAT_COOL, TREAT_CLEAN], // mug
  [TREAT_CLEAN], // plate
  [TREAT_COOL, TREAT_CLEAN], // tomato
  [TREAT_COOL, TREAT_CLEAN], // lettuce
];
export const KEY_COLOURS = ['red', 'blue', 'yellow', 'green'] as const;
export const ROOM_NAMES = ['hall', 'kitchen', 'pantry', 'scullery', 'dining room', 'study'] as const;

// ---- Milestones: each reads the state after a step (docs/maths.md §2). ----
export const MS_TAKE_KEY = 0;
export const MS_UNLOCK = 1;
export const MS_OPEN = 2;
export const MS_TAKE_OBJECT = 3;
export const MS_TREAT = 4;
export const MS_PLACE = 5;

// ---- Actions: four moves then four interactions, one per direction. ----
export const NUM_ACTIONS = 8;
export const DIRECTION_NAMES = ['north', 'east', 'south', 'west'] as const;
export const INTERACT = 4;

// ---- What an interaction does (action features and text). ----
export const EFFECT_NONE = 0;
export const EFFECT_TAKE = 1;
export const EFFECT_PUT = 2;
export const EFFECT_HEAT = 3;
export const EFFECT_COOL = 4;
export const EFFECT_CLEAN = 5;
export const EFFECT_OPEN = 6;
export const EFFECT_UNLOCK = 7;

// ---- Cell classes seen by the policy (neighbour cells and action targets). ----
export const CELL_FLOOR = 0;
export const CELL_WALL = 1;
export const CELL_OPEN_DOOR = 2;
export const CELL_CLOSED_DOOR = 3;
export const CELL_LOCKED_DOOR = 4;
export const CELL_APPLIANCE = 5;
export const CELL_RECEPTACLE = 6;
export const CELL_CLASSES = 7;
