/**
 * TextHouse horizons: one table saying how large each horizon's layouts are, which task families it
 * draws, which milestones each family reports there, how often things are shut away in closed
 * containers, and the step limit. Longer horizons have more receptacles, more closed containers, more
 * milestones and longer plans; the step limit leaves a searching agent (not only the all-knowing oracle)
 * room to finish.
 */
import type { Horizon } from '../types.ts';
import {
  F_CLEAN,
  F_COOL,
  F_HEAT,
  F_LIGHT,
  F_PICK,
  F_PICKTWO,
  M_BRING,
  M_FIND,
  M_FIND2,
  M_LIGHT,
  M_PLACE,
  M_PLACE2,
  M_PROCESS,
  M_TAKE,
  M_TAKE2,
} from './vocabulary.ts';

export interface HorizonConfig {
  /** Receptacles per layout, inclusive range. */
  recMin: number;
  recMax: number;
  /** Objects per layout (targets included), inclusive range. */
  objMin: number;
  objMax: number;
  /** Families drawn uniformly. */
  families: readonly number[];
  /** Milestone kinds (vocabulary M_*) of each family at this horizon, indexed by family; [] if unused. */
  milestones: readonly (readonly number[])[];
  /** Probability that a filler receptacle is a cabinet or drawer (which start closed). */
  closedFillerProb: number;
  /** Probability that a filler receptacle is an appliance the task does not need (fridge, microwave, sink). */
  applianceFillerProb: number;
  /** Probability that a layout without a task lamp still has one (on a desk or side table). */
  spareLampProb: number;
  /** Probability that each target starts inside a closed container. */
  closedTargetProb: number;
  /** Probability that the destination is a closed container. */
  closedDestProb: number;
  /** Whether look, inventory and examine (commands that change nothing) are offered. */
  idleCommands: boolean;
  /** Step limit. */
  maxSteps: number;
}

const PROCESS3 = [M_TAKE, M_PROCESS, M_PLACE];
const PROCESS4 = [M_FIND, M_TAKE, M_PROCESS, M_PLACE];
const PROCESS5 = [M_FIND, M_TAKE, M_BRING, M_PROCESS, M_PLACE];

export const HORIZON_CONFIGS: Record<Horizon, HorizonConfig> = {
  tiny: {
    recMin: 2,
    recMax: 3,
    objMin: 2,
    objMax: 2,
    families: [F_PICK],
    milestones: [[M_TAKE, M_PLACE], [], [], [], [], []],
    closedFillerProb: 0,
    applianceFillerProb: 0,
    spareLampProb: 0,
    closedTargetProb: 0,
    closedDestProb: 0,
    idleCommands: false,
    maxSteps: 16,
  },
  short: {
    recMin: 4,
    recMax: 5,
    objMin: 3,
    objMax: 5,
    families: [F_PICK, F_CLEAN, F_HEAT, F_COOL, F_LIGHT],
    milestones: [[M_FIND, M_TAKE, M_PLACE], PROCESS3, PROCESS3, PROCESS3, [M_FIND, M_TAKE, M_LIGHT], []],
    closedFillerProb: 0.2,
    applianceFillerProb: 0.1,
    spareLampProb: 0.3,
    closedTargetProb: 0,
    closedDestProb: 0,
    idleCommands: false,
    maxSteps: 30,
  },
  medium: {
    recMin: 7,
    recMax: 9,
    objMin: 6,
    objMax: 9,
    families: [F_PICK, F_CLEAN, F_HEAT, F_COOL, F_LIGHT, F_PICKTWO],
    milestones: [[M_FIND, M_TAKE, M_PLACE], PROCESS4, PROCESS4, PROCESS4, [M_FIND, M_TAKE, M_BRING, M_LIGHT], [M_TAKE, M_PLACE, M_TAKE2, M_PLACE2]],
    closedFillerProb: 0.35,
    applianceFillerProb: 0.15,
    spareLampProb: 0.5,
    closedTargetProb: 0.3,
    closedDestProb: 0.3,
    idleCommands: true,
    maxSteps: 40,
  },
  long: {
    recMin: 12,
    recMax: 14,
    objMin: 11,
    objMax: 15,
    families: [F_CLEAN, F_HEAT, F_COOL, F_LIGHT, F_PICKTWO],
    milestones: [[], PROCESS5, PROCESS5, PROCESS5, [M_FIND, M_TAKE, M_BRING, M_LIGHT], [M_FIND, M_TAKE, M_PLACE, M_FIND2, M_TAKE2, M_PLACE2]],
    closedFillerProb: 0.45,
    applianceFillerProb: 0.15,
    spareLampProb: 0.5,
    closedTargetProb: 0.5,
    closedDestProb: 0.5,
    idleCommands: true,
    maxSteps: 50,
  },
};

/** Largest milestone count of any family at a horizon. */
export function maxMilestonesOf(c: HorizonConfig): number {
  let m = 0;
  for (const f of c.families) m = Math.max(m, c.milestones[f].length);
  return m;
}
