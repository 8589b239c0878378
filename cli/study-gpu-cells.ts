/**
 * The GPU study (`npm run study -- --backend webgpu`): each cell's seeds (one environment, horizon and
 * variant; seeds 101, 102, …) train together through SeedRuns (src/worker/seed-runs.ts, the page's and
 * the train command's path: one batch on webgpu), cell after cell, in this process (one GPU device;
 * no worker threads). Each seed stops counting at its own env-step budget, as a run of the wasm study
 * does: its records up to the iteration that reached the budget are exactly those of the seed trained
 * alone on the same backend (the seeds in the batch go on until the last reaches its budget, and what
 * they train past their own budget is dropped). A seed that diverges keeps its records before the stop,
 * as on wasm, and the cell's other seeds continue from their saved states without it.
 */
import type { TrainConfig } from '../src/config.ts';
import { type EtaModel, formatDuration } from '../src/study/eta.ts';
import { runConfig, runKey, stepBudget, type RunSpec } from '../src/study/matrix.ts';
import type { StudyBudget } from '../src/study/profile.ts';
import { summarizeRun, type IterationFigures, type RunResult, type StartFigures } from '../src/study/summary.ts';
import { variantSpec } from '../src/study/variants.ts';
import type { RunState } from '../src/trainer/run.ts';
import { SeedRuns } from '../src/worker/seed-runs.ts';
import type { NodeBackend } from './node-backend.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The runs of `todo` grouped by cell (every field but the seed), seeds in order, cells in first-seen order. */
export function cellsOf(todo: readonly RunSpec[]): RunSpec[][] {
  const cells = new Map<string, RunSpec[]>();
  for (const spec of todo) {
    const cell = runKey({ ...spec, seed: 0 });
    cells.set(cell, [...(cells.get(cell) ?? []), spec]);
  }
  return [...cells.values()].map((specs) => [...specs].sort((a, b) => a.seed - b.seed));
}

interface SeedProgress {
  spec: RunSpec;
  config: TrainConfig;
  budget: number;
  records: IterationFigures[];
  steps: number;
  start: StartFigures | null;
  stopped: string | null;
  done: boolean;
}

/**
 * Trains one cell's seeds (`specs`: one cell, any number of seeds) as one batch on `backend` and
 * returns each seed's result, in the order of `specs`. `seconds` of each: the cell's wall time over its seeds.
 */
export async function trainCell(specs: readonly RunSpec[], budget: StudyBudget, backend: NodeBackend): Promise<RunResult[]> {
  const name = backend.name === 'webgpu' ? 'webgpu' : 'wasm';
  const seeds: SeedProgress[] = specs.map((spec) => ({
    spec,
    config: runConfig(spec, budget, name),
    budget: stepBudget(spec, budget),
    records: [],
    steps: 0,
    start: null,
    stopped: null,
    done: false,
  }));
  const t0 = performance.now();
  const create = async (group: readonly SeedProgress[]) =>
    (await SeedRuns.create(
      group.map((s) => s.config),
      [],
      () => Promise.resolve(backend.advantageEngine(group[0].config.method)),
      () => false,
    ))!;
  let group = seeds;
  let runs = await create(group);
  try {
    for (const { seed, record } of await runs.evaluateStart()) {
      const s = seeds.find((x) => x.config.seed === seed)!;
      s.start = { success: record.success, partial: record.partial };
    }
    while (group.some((s) => !s.done)) {
      const out = await runs.step();
      for (const { seed, record } of out) {
        const s = group.find((x) => x.config.seed === seed)!;
        if (s.done) continue;
        s.records.push(record);
        s.steps += record.envSteps;
        if (s.steps >= s.budget) s.done = true;
      }
      const halted = runs.halted;
      if (halted === null) {
        // Every seed at the iteration cap (a seed past its budget has stopped counting already).
        if (runs.finished) for (const s of group) s.done = true;
        continue;
      }
      // One seed diverged: SeedRuns stops the whole method with it; here the cell's other seeds go on
      // from their saved states (each seed's state is its own), without it.
      const match = group.length > 1 ? /^seed (\d+): (.*)$/s.exec(halted) : null;
      const culprit = match ? group.find((s) => s.config.seed === Number(match[1]))! : group[0];
      culprit.stopped = match ? match[2] : halted;
      culprit.done = true;
      const states = await runs.state();
      const rest = group.filter((s) => !s.done);
      runs.dispose();
      group = rest;
      if (rest.length === 0) break;
      runs = await create(rest);
      await runs.restore(rest.map((s) => states[seedsIndex(states, s.config.seed)]));
    }
  } finally {
    runs.dispose();
  }
  const seconds = (performance.now() - t0) / 1000 / specs.length;
  const where = backend.name === 'webgpu' ? { backend: 'webgpu' as const, adapter: backend.adapter ?? 'unknown adapter' } : {};
  return seeds.map((s) => ({
    ...summarizeRun(s.spec, s.records, seconds, {
      envStepBudget: s.budget,
      overrides: variantSpec(s.spec.variant).overrides,
      start: s.start,
      stopped: s.stopped,
    }),
    ...where,
  }));
}

function seedsIndex(states: readonly RunState[], seed: number): number {
  return states.findIndex((st) => st.config.seed === seed);
}

/** Trains `todo` cell by cell (trainCell); prints each cell's wall time; calls `finished` for each run. */
export async function runCells(
  todo: readonly RunSpec[],
  budget: StudyBudget,
  backend: NodeBackend,
  eta: EtaModel,
  finished: (spec: RunSpec, result: RunResult) => void,
): Promise<string[]> {
  const cells = cellsOf(todo);
  const failures: string[] = [];
  const started = performance.now();
  let done = 0;
  for (const [i, cell] of cells.entries()) {
    const t0 = performance.now();
    const label = `${cell[0].env}-${cell[0].horizon}-${cell[0].variant} (seeds ${cell.map((s) => s.seed).join(', ')})`;
    try {
      const results = await trainCell(cell, budget, backend);
      for (const [j, result] of results.entries()) {
        eta.observe({ spec: cell[j], envSteps: result.envSteps, seconds: result.seconds });
        finished(cell[j], result);
      }
      done += cell.length;
      const success = results.map((r) => `${(100 * r.finalSuccess).toFixed(0)}%`).join(' ');
      log(
        `[cell ${i + 1}/${cells.length}] ${label}: wall ${formatDuration((performance.now() - t0) / 1000)} for ${cell.length} seeds on ${backend.name}${backend.adapter ? ` (${backend.adapter})` : ''}; final success ${success} · ${done}/${todo.length} runs · elapsed ${formatDuration((performance.now() - started) / 1000)}`,
      );
    } catch (e) {
      failures.push(...cell.map((s) => `${runKey(s)}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
      log(`[cell ${i + 1}/${cells.length}] ${label} FAILED: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
    }
  }
  return failures;
}
