/**
 * GridHouse features for a policy that scores each candidate action against the observation.
 *
 * The observation says which sub-goal is next and where the landmark it needs is (distance fields from
 * layout.ts), and every action says what it would touch and whether it moves closer to that landmark.
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
  MAX_CELLS,
  MAX_FURNITURE,
  MAX_LANDMARKS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  NUM_ACTIONS,
  TABLE,
  TASK_OBJECT,
  TREATMENT_FLAG,
  TREAT_NONE,
} from './catalog.ts';
import { NO_TARGET, landmarkCell, oracleTarget, targetEffect, targetLandmark } from './oracle.ts';
import type { GridHouseState } from './state.ts';

// ---- Observation layout (one row per episode); entries 0…OBS_DYNAMIC−1 are fixed for the episode. ----
const OBS_OBJECT = 0; // 8: task object kind one-hot
const OBS_TREATMENT = 8; // 4: none / heat / cool / clean
const OBS_DEST = 12; // 3: destination table / counter / shelf
const OBS_LENGTH = 15; // M / maxMilestones
const OBS_BIAS = 16; // constant 1
const OBS_NEXT = 17; // 6: kind of the next milestone (all 0 once solved)
const OBS_PROGRESS = 23; // milestones done / M
const OBS_CARRY = 24; // 4: nothing / key / task object / other object
const OBS_OBJECT_FLAGS = 28; // 3: task object hot / cold / clean
const OBS_TREATED = 31; // task object is in the state the task asks for
const OBS_NEIGHBOURS = 32; // 4 × 7: class of the cell north / east / south / west
const OBS_TARGET_EFFECT = 60; // 7: interaction the current landmark wants (take … unlock)
const OBS_TARGET_DX = 67; // signed x offset to the landmark / 8
const OBS_TARGET_DY = 68; // signed y offset to the landmark / 8
const OBS_TARGET_DIST = 69; // walking distance to a cell beside the landmark / 16 (clipped to 1)
const OBS_TARGET_ADJACENT = 70; // standing beside the landmark
const OBS_ROOM = 71; // 3: room one-hot
const OBS_X = 74;
const OBS_Y = 75;
export const OBS_TIME = 76; // steps / maxSteps
export const OBS_DIM = 77;

// ---- Action feature layout (one row per candidate). ----
const ACT_MOVE = 0;
const ACT_INTERACT = 1;
const ACT_DIRECTION = 2; // 4
const ACT_CELL = 6; // 7: class of the cell the action faces
const ACT_CLOSER = 13; // move that shortens the walk to the landmark
const ACT_FARTHER = 14; // move that lengthens it
const ACT_EFFECT = 15; // 7: what the interaction does (take … unlock)
const ACT_TOUCHES_TARGET = 22; // interaction with the current landmark
const ACT_ADMISSIBLE = 23; // 1 on an admissible candidate (a per-action bias for the policy)
export const ACTION_DIM = 24;

// One-hot groups whose set entry is remembered per episode (FeatureWriter.hot).
const HOT_NEIGHBOUR = 0; // 4 groups: observation, class of each neighbour
const HOT_NEXT = 4;
const HOT_CARRY = 5;
const HOT_TARGET = 6;
const HOT_ROOM = 7;
const HOT_CELL = 8; // 8 groups: action features, class of the faced cell (moves, then interactions)
const HOT_EFFECT = 16; // 4 groups: interaction effect
const HOT_GROUPS = 20;

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

  /** Zeroes episode b's features, then writes the entries fixed for the episode (task encoding, bias). */
  start(st: GridHouseState, b: number): void {
    const L = st.layouts;
    const s = st.slot[b];
    const o = b * OBS_DIM;
    const obs = this.obs;
    obs.fill(0, o, o + OBS_DIM);
    obs[o + OBS_OBJECT + L.objectKind[s * MAX_OBJECTS + TASK_OBJECT]] = 1;
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

  /** Sets entry `index` of the one-hot group starting at `base` to `value`, clearing the entry set before. */
  private setHot(array: Float32Array, base: number, b: number, group: number, index: number, value: 0 | 1): void {
    const h = b * HOT_GROUPS + group;
    array[base + this.hot[h]] = 0;
    array[base + index] = value;
    this.hot[h] = index;
  }

  /** Rewrites the changing features of episode b from its state and mask (after writeAffordances). */
  write(st: GridHouseState, mask: Uint8Array, b: number, steps: number): void {
    const L = st.layouts;
    const s = st.slot[b];
    const target = oracleTarget(st, b);
    const hasTarget = target !== NO_TARGET;
    const landmark = hasTarget ? targetLandmark(target) : 0;
    const wanted = hasTarget ? targetEffect(target) : 0;
    const W = L.width[s];
    const here = st.agent[b];
    const cellBase = s * MAX_CELLS;
    const held = st.carried[b];
    const distBase = (s * MAX_LANDMARKS + landmark) * MAX_CELLS;
    const targetCell = hasTarget ? landmarkCell(st, b, landmark) : -1;
    const dHere = hasTarget ? L.dist[distBase + here] : 0;
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
      let closer = 0;
      let farther = 0;
      if (walkable && hasTarget) {
        const dNext = L.dist[distBase + nb];
        if (dNext < dHere) closer = 1;
        else if (dNext > dHere) farther = 1;
      }
      feats[mv + ACT_CLOSER] = closer;
      feats[mv + ACT_FARTHER] = farther;

      // Interact in this direction.
      const ia = (mBase + INTERACT + dir) * ACTION_DIM;
      const admissible = mask[mBase + INTERACT + dir] === 1;
      const effect = st.effect[mBase + INTERACT + dir];
      this.setHot(feats, ia + ACT_CELL, b, HOT_CELL + INTERACT + dir, cls, 1);
      feats[ia + ACT_ADMISSIBLE] = admissible ? 1 : 0;
      this.setHot(feats, ia + ACT_EFFECT, b, HOT_EFFECT + dir, admissible ? effect - 1 : 0, admissible ? 1 : 0);
      feats[ia + ACT_TOUCHES_TARGET] = admissible && nb === targetCell ? 1 : 0;
    }

    // Observation (the fixed part was written at reset).
    const k = st.progress[b];
    const M = L.numMilestones[s];
    this.setHot(obs, o + OBS_NEXT, b, HOT_NEXT, k < M ? L.milestoneKind[s * MAX_MILESTONES + k] : 0, k < M ? 1 : 0);
    obs[o + OBS_PROGRESS] = k / M;
    this.setHot(obs, o + OBS_CARRY, b, HOT_CARRY, held < 0 ? 0 : st.holdsKey(b) ? 1 : held === TASK_OBJECT ? 2 : 3, 1);
    const flags = st.objectFlags[b * MAX_OBJECTS + TASK_OBJECT];
    obs[o + OBS_OBJECT_FLAGS] = flags & FLAG_HOT ? 1 : 0;
    obs[o + OBS_OBJECT_FLAGS + 1] = flags & FLAG_COLD ? 1 : 0;
    obs[o + OBS_OBJECT_FLAGS + 2] = flags & FLAG_CLEAN ? 1 : 0;
    const t = L.treatment[s];
    obs[o + OBS_TREATED] = t === TREAT_NONE || (flags & TREATMENT_FLAG[t]) !== 0 ? 1 : 0;
    const hx = here % W;
    const hy = (here - hx) / W;
    this.setHot(obs, o + OBS_TARGET_EFFECT, b, HOT_TARGET, hasTarget ? wanted - 1 : 0, hasTarget ? 1 : 0);
    const tx = targetCell % W;
    obs[o + OBS_TARGET_DX] = hasTarget ? (tx - hx) / 8 : 0;
    obs[o + OBS_TARGET_DY] = hasTarget ? ((targetCell - tx) / W - hy) / 8 : 0;
    obs[o + OBS_TARGET_DIST] = !hasTarget ? 0 : dHere >= 16 ? 1 : dHere / 16;
    obs[o + OBS_TARGET_ADJACENT] = hasTarget && dHere === 0 ? 1 : 0;
    this.setHot(obs, o + OBS_ROOM, b, HOT_ROOM, L.cellRoom[cellBase + here], 1);
    obs[o + OBS_X] = hx / W;
    obs[o + OBS_Y] = hy / L.height[s];
    obs[o + OBS_TIME] = steps / this.maxSteps;
  }
}
