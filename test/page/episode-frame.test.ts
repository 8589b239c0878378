/**
 * The episode viewer's words and sizes without the DOM (src/page/episode-frame.ts): the map's cell
 * size, its legend and label, and each milestone's state (lit, dropped by milestone dropout, or not
 * reached yet) at a step.
 */
import { describe, expect, it } from 'vitest';
import type { GridFrame } from '../../envs/index.ts';
import { mapCellSize, mapLabel, mapLegend, milestoneState } from '../../src/page/episode-frame.ts';
import type { Replay } from '../../src/page/episode-replay.ts';

const frame = (over: Partial<GridFrame> = {}): GridFrame => ({
  width: 10,
  height: 5,
  tiles: '.'.repeat(50),
  agent: { x: 3, y: 2 },
  items: [],
  carrying: null,
  ...over,
});

/** Three steps: milestone 1 recorded on step 0; milestone 2 detected on step 2 but not recorded (dropped). */
const replay = {
  actions: ['go north', 'open fridge', 'take apple'],
  recorded: [1, 0, 0],
  detected: [1, 0, 2],
} as unknown as Replay;

describe('episode frame', () => {
  it('fits the width, keeps tall maps under 400 px, and keeps cells between 8 and 44 px', () => {
    expect(mapCellSize(300, frame())).toBe(30);
    expect(mapCellSize(2000, frame())).toBe(44);
    expect(mapCellSize(600, frame({ width: 6, height: 40 }))).toBe(10);
    expect(mapCellSize(50, frame())).toBe(8);
  });

  it('letters each piece of furniture and says what the objects lie on', () => {
    const items = [
      { x: 1, y: 1, kind: 'receptacle', label: 'table' },
      { x: 1, y: 1, kind: 'object', label: 'apple' },
      { x: 4, y: 2, kind: 'object', label: 'key' },
      { x: 6, y: 3, kind: 'appliance', label: 'microwave' },
    ];
    expect(mapLegend(frame({ items }))).toEqual({
      furniture: [
        ['table', 'T'],
        ['microwave', 'M'],
      ],
      objects: ['apple (on the table)', 'key'],
    });
  });

  it("labels the map with the step, the agent's cell and what it carries", () => {
    expect(mapLabel(replay, 1, frame())).toBe('GridHouse map, step 1 of 3: agent at column 3, row 2.');
    expect(mapLabel(replay, 2, frame({ carrying: 'apple' }))).toBe('GridHouse map, step 2 of 3: agent at column 3, row 2, carrying apple.');
  });

  it('lights a recorded milestone after its step, and marks a detected but unrecorded one as dropped', () => {
    expect(milestoneState(replay, 0, 1)).toEqual({ lit: false, dropped: false, state: 'not reached yet' });
    expect(milestoneState(replay, 1, 1)).toEqual({ lit: true, dropped: false, state: 'reached at step 1' });
    expect(milestoneState(replay, 2, 2)).toMatchObject({ lit: false, dropped: false });
    expect(milestoneState(replay, 3, 2)).toEqual({ lit: false, dropped: true, state: 'reached at step 3 but dropped (milestone dropout)' });
  });
});
