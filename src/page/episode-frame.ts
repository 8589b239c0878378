/**
 * The episode viewer's words and sizes, without the DOM: how large a GridHouse map's cells are drawn,
 * what the map's legend and its screen-reader label say of a frame, and whether each milestone is lit,
 * dropped or not reached yet at a step of the replay. The element (src/ui/elements/episode-viewer.ts)
 * renders them; the painter (src/ui/painters/gridhouse-painter.ts) draws the map.
 */
import type { GridFrame } from '../../envs/index.ts';
import type { Replay } from './episode-replay.ts';

/** Tall maps (rooms stacked vertically) stay within about half a phone screen. */
const MAX_MAP_HEIGHT = 400;

/** CSS pixels per map cell: fit `width`, stay under MAX_MAP_HEIGHT, between 8 and 44. */
export function mapCellSize(width: number, frame: GridFrame): number {
  return Math.max(8, Math.floor(Math.min(width / frame.width, MAX_MAP_HEIGHT / frame.height, 44)));
}

/** Which letter is which piece of furniture, and where the objects are ("apple (on the table)"). */
export function mapLegend(f: GridFrame): { furniture: [label: string, letter: string][]; objects: string[] } {
  const furniture = new Map<string, string>();
  for (const item of f.items) if (item.kind !== 'object') furniture.set(item.label, item.label[0].toUpperCase());
  const objects = f.items
    .filter((i) => i.kind === 'object')
    .map((o) => {
      const under = f.items.find((i) => i.kind !== 'object' && i.x === o.x && i.y === o.y);
      return under ? `${o.label} (on the ${under.label})` : o.label;
    });
  return { furniture: [...furniture], objects };
}

/** The map's text alternative at `step`: where the agent is and what it carries. */
export function mapLabel(r: Replay, step: number, f: GridFrame): string {
  const carrying = f.carrying ? `, carrying ${f.carrying}` : '';
  return `GridHouse map, step ${step} of ${r.actions.length}: agent at column ${f.agent.x}, row ${f.agent.y}${carrying}.`;
}

/**
 * Milestone `k` (1-based) before `step`: lit when training recorded it, dropped when the replay detected
 * it but training did not record it (milestone dropout), with the sentence that says so.
 */
export function milestoneState(r: Replay, step: number, k: number): { lit: boolean; dropped: boolean; state: string } {
  const recordedAt = r.recorded.indexOf(k);
  const detectedAt = r.detected.indexOf(k);
  const lit = recordedAt >= 0 && recordedAt < step;
  const dropped = recordedAt < 0 && detectedAt >= 0 && detectedAt < step;
  const state = lit ? `reached at step ${recordedAt + 1}` : dropped ? `reached at step ${detectedAt + 1} but dropped (milestone dropout)` : 'not reached yet';
  return { lit, dropped, state };
}
