/**
 * The environments' read-only tables (gpu-envs.ts `upload`) of several seeds' batches joined into one,
 * for a whole-episode rollout that plays those seeds side by side (src/trainer/gpu-rollout-batch.ts):
 * each seed's reset records point into its own part of the joined table, so a run reads exactly the
 * words it reads when its seed plays alone. One entry per table name; a table without one is not
 * joined, and those seeds then play one after the other.
 */
import { EPISODE_OFFSET } from './gridhouse-step.ts';
import { SHOP_EPISODE_OFFSET, SHOP_TASK_WORDS, SHOP_TASKS_START } from './shop-step.ts';

/** The joined table, and for each seed what to add to its records' table field (`field`). */
export interface JoinedTable {
  data: Uint32Array;
  field: number | null;
  shift: number[];
}

type Join = (tables: readonly Uint32Array[]) => JoinedTable;

function concat(parts: readonly Uint32Array[]): Uint32Array {
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const JOINS: Readonly<Record<string, Join>> = {
  // GridHouse: each slot's byte offset (a record's SLOT field indexes them), then the slots' layouts.
  layouts(tables) {
    const slots = tables.map((t) => t[0] / 4);
    const total = slots.reduce((a, b) => a + b, 0);
    const layouts = tables.map((t, s) => t.subarray(slots[s]));
    const starts: number[] = [];
    let bytes = 4 * total;
    tables.forEach((t, s) => {
      for (let i = 0; i < slots[s]; i++) starts.push(t[i] - 4 * slots[s] + bytes);
      bytes += 4 * layouts[s].length;
    });
    const shift = slots.map((_, s) => slots.slice(0, s).reduce((a, b) => a + b, 0));
    return { data: concat([Uint32Array.from(starts), ...layouts]), field: EPISODE_OFFSET.SLOT, shift };
  },
  // TextHouse: the Zobrist tables, the same for every batch.
  zobrist(tables) {
    if (tables.some((t) => t.length !== tables[0].length || t.some((w, i) => w !== tables[0][i])))
      throw new Error('seed tables: the Zobrist tables differ between seeds');
    return { data: tables[0], field: null, shift: tables.map(() => 0) };
  },
  // The shop: the reward fractions (the same for every batch), then the task blocks a record's TASK field indexes.
  tasks(tables) {
    const blocks = tables.map((t) => (t.length - SHOP_TASKS_START) / SHOP_TASK_WORDS);
    const shift = blocks.map((_, s) => blocks.slice(0, s).reduce((a, b) => a + b, 0));
    return {
      data: concat([tables[0].subarray(0, SHOP_TASKS_START), ...tables.map((t) => t.subarray(SHOP_TASKS_START))]),
      field: SHOP_EPISODE_OFFSET.TASK,
      shift,
    };
  },
};

/** Whether the tables named `name` can be joined. */
export function joinsSeedTables(name: string): boolean {
  return Object.hasOwn(JOINS, name);
}

/** The seeds' tables named `name` joined (in seed order). */
export function joinSeedTables(name: string, tables: readonly Uint32Array[]): JoinedTable {
  if (!joinsSeedTables(name)) throw new RangeError(`seed tables: no join for the ${name} table`);
  return JOINS[name](tables);
}
