/**
 * The benches' view of one iteration of a method's seeds (`--seeds K`): the seeds are trained through
 * SeedRuns (src/worker/seed-runs.ts), the page's and the train command's path (one batch on webgpu,
 * one seed after the other on wasm and cpu), and an iteration's figures are those of all its seeds.
 */
import type { TrainConfig } from '../src/config.ts';
import type { AdvantageEngine } from '../src/engine/advantage-engine.ts';
import { seedConfigs } from '../src/race/seeds.ts';
import type { IterationRecord } from '../src/trainer/iteration-record.ts';
import { SeedRuns } from '../src/worker/seed-runs.ts';
import { formatSpread, type Spread, spread, trainingStepsPerSecond } from './throughput.ts';

/** Seeds config.seed, + 1, …, + count − 1 of `config`, each on an engine of its own. */
export async function createSeedRuns(config: TrainConfig, count: number, engine: () => AdvantageEngine): Promise<SeedRuns> {
  const runs = await SeedRuns.create(
    seedConfigs(config, count),
    [],
    () => Promise.resolve(engine()),
    () => false,
  );
  if (!runs) throw new Error('SeedRuns.create was superseded with nothing superseding it');
  return runs;
}

/** One iteration of every seed: the records in seed order; an Error naming the seed when one stopped. */
export async function stepAllSeeds(runs: SeedRuns, label: string): Promise<IterationRecord[]> {
  const seeds = runs.seeds;
  const records = (await runs.step()).map((r) => r.record);
  if (records.length < seeds.length) throw new Error(`${label}: training stopped at iteration ${runs.iteration + 1}: ${runs.halted ?? 'no record'}`);
  return records;
}

/**
 * The iteration of all seeds as one record's figures: env steps summed; the rollout's milliseconds
 * summed over the seeds' records (each seed's own `ms.rollout`); the rest is the first seed's.
 */
export function combinedRecord(records: readonly IterationRecord[]): IterationRecord {
  const sum = (f: (r: IterationRecord) => number) => records.reduce((a, r) => a + f(r), 0);
  const [first] = records;
  return {
    ...first,
    envSteps: sum((r) => r.envSteps),
    ms: { rollout: sum((r) => r.ms.rollout), advantage: sum((r) => r.ms.advantage), update: sum((r) => r.ms.update), critic: sum((r) => r.ms.critic ?? 0) },
  };
}

/** Training env steps per second of 1 seed and of K seeds, and their iterations' wall milliseconds (medians). */
export interface SeedThroughput {
  seeds: [1, number];
  trainingStepsPerSecond: [Spread, Spread];
  iterationMs: [number, number];
}

/**
 * Trains 1 seed and `count` seeds of `config` side by side, one iteration of each in turn (so that a
 * machine shared with other work slows both alike), and times each iteration whole: all its seeds'
 * env steps over its wall time (throughput.ts's training env steps per second). The first `warmup`
 * iterations are left out.
 */
export async function compareSeedThroughput(config: TrainConfig, count: number, engine: () => AdvantageEngine, warmup: number): Promise<SeedThroughput> {
  const one = await createSeedRuns(config, 1, engine);
  const many = await createSeedRuns(config, count, engine);
  const rates: [number[], number[]] = [[], []];
  const ms: [number[], number[]] = [[], []];
  try {
    for (let i = 0; i < config.iters; i++) {
      for (const [j, runs] of [one, many].entries()) {
        const t0 = performance.now();
        const records = await stepAllSeeds(runs, `${config.method}, ${runs.seeds.length} seed(s)`);
        const wall = performance.now() - t0;
        if (i < warmup) continue;
        rates[j].push(trainingStepsPerSecond(combinedRecord(records).envSteps, wall / 1000));
        ms[j].push(wall);
      }
    }
  } finally {
    one.dispose();
    many.dispose();
  }
  return { seeds: [1, count], trainingStepsPerSecond: [spread(rates[0]), spread(rates[1])], iterationMs: [spread(ms[0]).median, spread(ms[1]).median] };
}

export function formatSeedThroughput(method: string, t: SeedThroughput): string {
  const [a, b] = t.trainingStepsPerSecond;
  return (
    `  ${method}: 1 seed ${t.iterationMs[0].toFixed(0)} ms/iteration, training env steps/s ${formatSpread(a)}; ` +
    `${t.seeds[1]} seeds ${t.iterationMs[1].toFixed(0)} ms/iteration, ${formatSpread(b)}; ` +
    `${t.seeds[1]} seeds cost ${(t.iterationMs[1] / t.iterationMs[0]).toFixed(2)}× one seed's iteration (medians)`
  );
}
