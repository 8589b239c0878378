/**
 * What a GridHouse task looks like at each horizon: how many rooms, which doors, which furniture in
 * which room, how many milestones, and the step limit. Tuned so that a uniformly random admissible
 * policy solves `tiny` often, `long` almost never, and still completes a first sub-goal on `long` in a
 * third of its runs (the regime docs/maths.md §1 describes). `npm run -s envs -- stats` prints the figures.
 */
import type { Horizon } from '../types.ts';
import { DOOR_CLOSED, DOOR_LOCKED } from './catalog.ts';

/** Role of a furniture piece in the task; the generator picks concrete kinds for each role. */
export const ROLE_SOURCE = 0; // receptacle the task object starts on
export const ROLE_DEST = 1; // receptacle the task object must end on
export const ROLE_KEY = 2; // receptacle the key starts on
export const ROLE_APPLIANCE = 3; // the appliance the task's treatment needs
export const ROLE_OTHER_APPLIANCE = 4; // a wrong appliance (a trap for a random policy)

export interface HorizonSpec {
  rooms: number;
  /** Interior width range of each room (cells along the row of rooms), inclusive. */
  width: readonly [number, number];
  /** Interior height range shared by the rooms, inclusive. */
  height: readonly [number, number];
  /** State of the door between room d and d+1. */
  doors: readonly number[];
  /** Whether the task includes a treatment (heat / cool / clean). */
  treatment: boolean;
  /** Furniture roles placed in each room (index = room). */
  furniture: readonly (readonly number[])[];
  /** Distractor objects, placed on random receptacles. */
  distractors: number;
  milestones: number;
  /** Step limit; at least twice the longest oracle plan at this horizon (checked by tests). */
  maxSteps: number;
}

export const HORIZON_SPECS: Record<Horizon, HorizonSpec> = {
  tiny: {
    rooms: 1,
    width: [3, 3],
    height: [3, 3],
    doors: [],
    treatment: false,
    furniture: [[ROLE_SOURCE, ROLE_DEST]],
    distractors: 0,
    milestones: 2,
    maxSteps: 16,
  },
  short: {
    rooms: 1,
    width: [4, 5],
    height: [4, 4],
    doors: [],
    treatment: true,
    furniture: [[ROLE_SOURCE, ROLE_DEST, ROLE_APPLIANCE, ROLE_OTHER_APPLIANCE]],
    distractors: 1,
    milestones: 3,
    maxSteps: 40,
  },
  medium: {
    rooms: 2,
    width: [3, 5],
    height: [3, 4],
    doors: [DOOR_LOCKED],
    treatment: false,
    furniture: [
      [ROLE_KEY, ROLE_DEST],
      [ROLE_SOURCE, ROLE_OTHER_APPLIANCE],
    ],
    distractors: 1,
    milestones: 4,
    maxSteps: 80,
  },
  long: {
    rooms: 3,
    width: [3, 5],
    height: [3, 5],
    doors: [DOOR_LOCKED, DOOR_CLOSED],
    treatment: true,
    furniture: [
      [ROLE_KEY, ROLE_DEST],
      [ROLE_APPLIANCE, ROLE_OTHER_APPLIANCE],
      [ROLE_SOURCE, ROLE_OTHER_APPLIANCE],
    ],
    distractors: 2,
    milestones: 6,
    maxSteps: 128,
  },
};
