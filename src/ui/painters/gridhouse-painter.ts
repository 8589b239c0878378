/**
 * Draws a GridHouse replay frame on a canvas for the episode viewer (src/ui/elements/episode-viewer.ts):
 * walls, doors (closed ones with a knob, locked ones with a padlock), furniture as lettered tiles with
 * objects as badges on them, the agent's path so far, a star where each recorded milestone was reached,
 * and the agent. The cell size comes from src/page/episode-frame.ts.
 */
import type { GridFrame } from '../../../envs/index.ts';
import { withAlpha } from '../theme.ts';
import { fitCanvas, roundRect, star } from './canvas.ts';

/**
 * Paints `frames[step]` with `cell` CSS pixels per map cell, the path through `frames` up to it, and a
 * star where each milestone of `recorded` (per step: its index, else 0) was reached before it;
 * `pathColor` is the CSS custom property of the method's colour and `c` reads a custom property as a
 * colour (with a fallback).
 */
export function paintGridFrame(
  canvas: HTMLCanvasElement,
  frames: readonly GridFrame[],
  recorded: readonly number[],
  step: number,
  cell: number,
  pathColor: string,
  c: (property: string, fallback: string) => string,
): void {
  const frame = frames[step];
  const ctx = fitCanvas(canvas, cell * frame.width, cell * frame.height);
  const colors = {
    wall: c('--wall', '#3a3f4b'),
    floor: c('--floor', '#f3f1ea'),
    grid: c('--floor-grid', '#e4e0d5'),
    doorOpen: c('--door-open', '#c9b48a'),
    doorClosed: c('--door-closed', '#8a6a3a'),
    doorLocked: c('--door-locked', '#D55E00'),
    item: c('--item', '#6b7280'),
    object: c('--object', '#009E73'),
    label: c('--item-label', '#fff'),
    path: c(pathColor, '#0072B2'),
    milestone: c('--milestone', '#F0E442'),
  };
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const t = frame.tiles[y * frame.width + x];
      ctx.fillStyle = t === '#' ? colors.wall : t === '+' ? colors.doorOpen : t === 'D' ? colors.doorClosed : t === 'L' ? colors.doorLocked : colors.floor;
      ctx.fillRect(x * cell, y * cell, cell, cell);
      if (t === '.') {
        ctx.strokeStyle = colors.grid;
        ctx.lineWidth = 1;
        ctx.strokeRect(x * cell + 0.5, y * cell + 0.5, cell - 1, cell - 1);
      }
      if (t === 'L') padlock(ctx, (x + 0.5) * cell, (y + 0.5) * cell, cell, colors.label);
      if (t === 'D') {
        // A closed door: a knob.
        ctx.fillStyle = colors.label;
        ctx.beginPath();
        ctx.arc((x + 0.7) * cell, (y + 0.5) * cell, cell * 0.08, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }
  // Receptacles and appliances fill their cell; objects sit on them as small badges.
  const objectsAt = new Map<string, number>();
  for (const item of frame.items) {
    const cx = item.x * cell;
    const cy = item.y * cell;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    if (item.kind === 'object') {
      const key = `${item.x},${item.y}`;
      const n = objectsAt.get(key) ?? 0;
      objectsAt.set(key, n + 1);
      const rr = cell * 0.17;
      const ox = cx + cell - rr - 2 - n * (rr * 2 + 1);
      const oy = cy + cell - rr - 2;
      ctx.fillStyle = colors.object;
      ctx.beginPath();
      ctx.arc(ox, oy, rr, 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.fillStyle = colors.item;
      roundRect(ctx, cx + 2, cy + 2, cell - 4, cell - 4, cell * 0.18);
      ctx.fill();
      ctx.fillStyle = colors.label;
      ctx.font = `700 ${Math.round(cell * 0.42)}px system-ui, sans-serif`;
      ctx.fillText(item.label[0].toUpperCase(), cx + cell / 2, cy + cell / 2 - cell * 0.06);
    }
  }
  // The path so far.
  ctx.strokeStyle = withAlpha(colors.path, 0.55);
  ctx.lineWidth = Math.max(2, cell * 0.12);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (let t = 0; t <= step; t++) {
    const a = frames[t].agent;
    const px = (a.x + 0.5) * cell;
    const py = (a.y + 0.5) * cell;
    if (t === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.stroke();
  // Milestones reached so far, where the agent stood.
  for (let t = 0; t < step; t++) {
    const k = recorded[t];
    if (!k) continue;
    const a = frames[t + 1].agent;
    star(ctx, (a.x + 0.5) * cell, (a.y + 0.5) * cell - cell * 0.32, cell * 0.22, colors.milestone);
  }
  // The agent.
  const a = frame.agent;
  ctx.fillStyle = colors.path;
  ctx.strokeStyle = colors.label;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.arc((a.x + 0.5) * cell, (a.y + 0.5) * cell, cell * 0.3, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
}

function padlock(ctx: CanvasRenderingContext2D, cx: number, cy: number, cell: number, color: string): void {
  const w = cell * 0.36;
  const h = cell * 0.26;
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = Math.max(1.5, cell * 0.07);
  ctx.beginPath();
  ctx.arc(cx, cy - h * 0.35, w * 0.3, Math.PI, 0);
  ctx.stroke();
  ctx.fillRect(cx - w / 2, cy - h * 0.3, w, h);
}
