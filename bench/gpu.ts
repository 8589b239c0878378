/**
 * `npm run bench:gpu [-- --cases LIST --warmup N --measure N --seeds K --json --viewed --require-gpu-path] [--name value …]`: what one training iteration
 * asks of the WebGPU API, counted by wrapping the API itself (src/backend/webgpu-call-counter.ts), on
 * tfjs's webgpu backend in Node (Dawn).
 *
 * Per case and per measured iteration it prints compute dispatches, queue submits, buffer read-backs and
 * their bytes, the bytes the host wrote (writeBuffer and mapped writes, tfjs's tensor uploads included),
 * pipelines created, the host's milliseconds outside GPU waits, the seconds on this adapter, and a
 * real-GPU estimate from a stated cost model (gpu-cost-model.ts), labelled as an estimate, and the path
 * each phase took (iteration-path.ts) with any fallback's reason. Per case it prints training and
 * rollout env steps per second as min / median / max over the measured iterations (throughput.ts says
 * what each divides; at least 5 by default). The counts do not depend on the adapter; the seconds, host
 * milliseconds and throughputs do. `--require-gpu-path` exits with status 3, naming the case, the
 * iteration, the phase and the reason, when any iteration (warm-up included) fell back.
 *
 * Host milliseconds outside GPU waits, two ways:
 * - `hostMs` = the iteration's wall time − the time during which at least one GPU promise was pending
 *   (`mapAsync`, `onSubmittedWorkDone`, `popErrorScope`, async pipeline creation; the union of their
 *   intervals, the counter's `gpuWaitMs`). On SwiftShader the GPU's work runs on the same CPU's cores,
 *   and on a shared machine other jobs take them too, so this is an UPPER bound of the host's own work:
 *   whatever runs while the host is not waiting delays it (`runQueueMs` says how long the main thread
 *   waited for a core). It is a lower bound in one respect: host work done while a promise is pending
 *   but not yet awaited counts as waiting; our code awaits its promises within a few lines.
 * - `hostCpuMs` (Linux) = the CPU time of the main thread (the one that runs the JavaScript and issues
 *   the calls; /proc/self/task/<pid>/schedstat) over the iteration, less its CPU time during GPU waits
 *   (Dawn polling for the promise). Kernels on SwiftShader's worker threads and other jobs do not count,
 *   so it is close to what the host would spend beside a real GPU (the same code, the same CPU), and
 *   the verdict uses it when present.
 * Cases: `gridhouse`, `texthouse` and `shop` are the page defaults (long horizon, 8 × 8 runs, width 64,
 * BEACON, the SFT prior). `<env>-4096` runs 64 × 64 = 4,096 runs and `<env>-64` its twin at 8 × 8,
 * both at the `tiny` horizon from random init (SwiftShader runs them in minutes); the targets for
 * 4,096 runs are read against the twin. Setting flags apply to every case before the case's own
 * changes. The first iteration (the SFT prior, shader compilation) is run and left out, and so are
 * `--warmup` − 1 more; `--measure` iterations follow them. More warm-up iterations let the host's
 * JavaScript reach its optimised code before it is measured: code that runs once an iteration is
 * compiled by V8 only after a few calls, and until then a loop over 4,096 runs costs its interpreted
 * price, where one over 64 hides it. By default no iteration's batch is wanted for the page's views
 * (the trainer's `batchViewWanted`): where the metrics are computed on the GPU its advantage details stay there, as
 * in the iterations the page does not draw; `--viewed` reads them every iteration, as the page does at
 * its normal speed (only the checked sample's, where the views draw that sample: src/trainer/sample-view.ts).
 * `--seeds K` measures every case again with K seeds trained side by side through SeedRuns (the page's
 * and the train command's path) and prints, per case, the two iterations' counts and training env steps
 * per second side by side (all seeds' env steps over each whole iteration); the targets are read on the
 * 1-seed cases.
 */
import { readFileSync } from 'node:fs';
import { flagsHelp, parseFlags, runCommand, UsageError } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';
import { createEnv } from '../envs/index.ts';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounts } from '../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { MAX_SEEDS } from '../src/setting-limits.ts';
import { combinedRecord, createSeedRuns, stepAllSeeds } from './seed-batch.ts';
import { COST_MODEL, estimateRealGpuSeconds, formatEstimate, type GpuEstimate, type IterationShape } from './gpu-cost-model.ts';
import { CURRENT_KERNELS, DEVICES, kernelFlops, phaseEstimates } from './gpu-kernel-model.ts';
import { type CaseFigures, defaultsChecks, formatChecks, meanFigures, scaleChecks, steadyChecks, TARGETS, type TargetCheck } from './gpu-targets.ts';
import type { IterationPath } from '../src/trainer/iteration-record.ts';
import {
  formatSpread,
  gpuPathFallbacks,
  MIN_MEASURED_ITERATIONS,
  pathLabel,
  REQUIRE_GPU_PATH_FLAG,
  requireGpuPath,
  type Spread,
  spread,
  trainingStepsPerSecond,
} from './throughput.ts';

/** The horizon of the 4,096-run cases and their twins: SwiftShader on a shared 2-core machine runs 4,096 tiny episodes in minutes. */
const SCALE_HORIZON = 'tiny';
const scale = (env: TrainConfig['env'], runs: 64 | 4096): Partial<TrainConfig> => ({
  env,
  horizon: SCALE_HORIZON,
  sftEpisodes: 0,
  ...(runs === 4096 ? { tasksPerIteration: 64, groupSize: 64 } : { tasksPerIteration: 8, groupSize: 8 }),
});

interface CaseSpec {
  settings: Partial<TrainConfig>;
  /** The page defaults' targets apply. */
  defaults?: true;
  /** The 8 × 8 case this 4,096-run case is read against. */
  twin?: string;
}

const CASES: Record<string, CaseSpec> = {
  gridhouse: { settings: { env: 'gridhouse' }, defaults: true },
  texthouse: { settings: { env: 'texthouse' }, defaults: true },
  shop: { settings: { env: 'shop' }, defaults: true },
  'gridhouse-64': { settings: scale('gridhouse', 64) },
  'gridhouse-4096': { settings: scale('gridhouse', 4096), twin: 'gridhouse-64' },
  'texthouse-64': { settings: scale('texthouse', 64) },
  'texthouse-4096': { settings: scale('texthouse', 4096), twin: 'texthouse-64' },
  'shop-64': { settings: scale('shop', 64) },
  'shop-4096': { settings: scale('shop', 4096), twin: 'shop-64' },
};
const DEFAULT_CASES = Object.keys(CASES).join(',');

const base: TrainConfig = { ...DEFAULT_CONFIG, backend: 'webgpu' };
const FLAGS = {
  cases: { kind: 'string', doc: `comma-separated cases among ${Object.keys(CASES).join(', ')}; default all` },
  warmup: {
    kind: { type: 'int', min: 1, max: 100 },
    doc: 'iterations run and left out per case before the measured ones (the first: the SFT prior and shader compilation); default 1',
  },
  measure: { kind: { type: 'int', min: 1, max: 100 }, doc: `iterations measured per case after the warm-up; default ${MIN_MEASURED_ITERATIONS}` },
  json: { kind: 'switch', doc: 'print one JSON object instead of lines' },
  seeds: {
    kind: { type: 'int', min: 2, max: MAX_SEEDS.webgpu },
    doc: 'also measure every case with K seeds (seed, seed + 1, …) trained through SeedRuns, printed beside 1 seed: counts per iteration and training env steps/s',
  },
  viewed: {
    kind: 'switch',
    doc: "every iteration's batch read for the page's views, as the page draws at normal speed; default: iterations the page does not draw (fast speed draws 1 in 10)",
  },
  ...REQUIRE_GPU_PATH_FLAG,
} as const;
const USAGE = `usage: npm run bench:gpu [-- --cases LIST --warmup N --measure N --seeds K --json --viewed --require-gpu-path] [-- --name value …]\n${flagsHelp(FLAGS, base)}`;

/** The main thread's [CPU time, time waiting for a core] in ms (Linux schedstat), or null elsewhere. */
function mainThreadSchedMs(): [number, number] | null {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(onCpu) && Number.isFinite(waiting) ? [onCpu / 1e6, waiting / 1e6] : null;
  } catch {
    return null;
  }
}
const mainThreadCpuMs = () => mainThreadSchedMs()?.[0] ?? 0;

export interface GpuIterationFigures extends WebGpuCallCounts {
  iteration: number;
  seconds: number;
  /** The rollout's wall seconds (the record's `ms.rollout`). */
  rolloutSeconds: number;
  envSteps: number;
  /** Where each phase ran, and why not on the GPU where it was asked for (the record's). */
  path?: IterationPath;
  fallback?: string;
  /** Wall milliseconds − gpuWaitMs: the host's milliseconds outside GPU waits. */
  hostMs: number;
  /** The main thread's CPU milliseconds outside GPU waits (Linux), else null. */
  hostCpuMs: number | null;
  /** The main thread's milliseconds waiting for a core during the iteration (Linux), else null. */
  runQueueMs: number | null;
  /** Real-GPU estimate (an estimate, see gpu-cost-model.ts). */
  estimate: GpuEstimate;
}

export interface GpuCaseReport {
  case: string;
  /** Seeds trained side by side (SeedRuns): every figure is of all of them together. */
  seeds: number;
  settings: string;
  runs: number;
  horizon: string;
  shape: Omit<IterationShape, 'envSteps'>;
  iterations: GpuIterationFigures[];
  /** Means over the measured iterations. */
  mean: CaseFigures & { envSteps: number; seconds: number };
  /** Env steps per second over the measured iterations: over each whole iteration, and over its rollout alone. */
  throughput: { training: Spread; rollout: Spread };
  /** Every iteration's fallback, warm-up included ("iteration N: phase: reason"). */
  fallbacks: string[];
}

async function measureCase(
  name: string,
  config: TrainConfig,
  warmup: number,
  measure: number,
  viewed: boolean,
  seeds: number,
  backend: Awaited<ReturnType<typeof initNodeBackend>>,
  log: (line: string) => void,
): Promise<GpuCaseReport> {
  const counter = installWebGpuCallCounter(globalThis, { cpuClock: mainThreadCpuMs });
  // Every seed plays its own runs: the kernels' shape is that of all of them.
  const runs = config.tasksPerIteration * config.groupSize * seeds;
  const settings = `${config.env}/${config.horizon}, ${config.tasksPerIteration}×${config.groupSize} runs, width ${config.hiddenSize}, ${config.method}, SFT episodes ${config.sftEpisodes}, ${seeds} seed(s)`;
  const env = createEnv(config.env, { horizon: config.horizon, batchSize: 1 });
  const shape = { obsDim: env.obsDim, actionDim: env.actionDim, candidates: env.maxActions, hiddenSize: config.hiddenSize, epochs: config.epochs };
  log(`${name}: ${settings}`);
  const run = await createSeedRuns({ ...config, iters: warmup + measure }, seeds, () => backend.advantageEngine(config.method));
  // The first seed's batches are the ones the page views (SeedRuns.trainer).
  run.trainer.batchViewWanted = () => viewed;
  const iterations: GpuIterationFigures[] = [];
  const all: GpuIterationFigures[] = [];
  try {
    for (let i = 0; i < warmup + measure; i++) {
      const before = counter.read();
      const schedBefore = mainThreadSchedMs();
      const t0 = performance.now();
      const record = combinedRecord(await stepAllSeeds(run, name));
      const wallMs = performance.now() - t0;
      const schedAfter = mainThreadSchedMs();
      const calls = callsBetween(before, counter.read());
      const hostMs = wallMs - calls.gpuWaitMs;
      const sched = schedBefore && schedAfter ? { cpu: schedAfter[0] - schedBefore[0], queue: schedAfter[1] - schedBefore[1] } : null;
      const hostCpuMs = sched ? sched.cpu - calls.gpuWaitCpuMs : null;
      // The distinct candidate rows are not known here: left out of the update's chain (2·K of its M + 2·K, K ≪ M) and of
      // the FLOPs (the candidate tower over K rows, K ≪ steps): the FLOPs the kernels this tree runs perform.
      const kernelShape = { ...shape, runs, envSteps: record.envSteps, distinctRows: 0, minibatches: config.minibatches };
      const flops = kernelFlops(CURRENT_KERNELS, kernelShape).total;
      const phases = phaseEstimates(CURRENT_KERNELS, kernelShape, DEVICES.midRange);
      const serialSeconds = { low: phases.rollout.serial.low + phases.update.serial.low, high: phases.rollout.serial.high + phases.update.serial.high };
      const estimate = estimateRealGpuSeconds({ ...calls, hostSeconds: (hostCpuMs ?? hostMs) / 1000, flops, serialSeconds });
      const figures = {
        iteration: record.iteration,
        seconds: wallMs / 1000,
        rolloutSeconds: record.ms.rollout / 1000,
        envSteps: record.envSteps,
        ...(record.path ? { path: record.path } : {}),
        ...(record.fallback === undefined ? {} : { fallback: record.fallback }),
        ...calls,
        hostMs,
        hostCpuMs,
        runQueueMs: sched?.queue ?? null,
        estimate,
      };
      const first = i === 0 ? ' (first: SFT prior and shader compilation, not measured)' : i < warmup ? ' (warm-up, not measured)' : '';
      log(`  iteration ${figures.iteration}${first}: ${formatFigures(figures)}`);
      log(`    ${formatEstimate(estimate)}`);
      if (figures.fallback !== undefined) log(`    fallback: ${figures.fallback}`);
      if (i >= warmup) iterations.push(figures);
      all.push(figures);
    }
  } finally {
    run.dispose();
  }
  const mean = meanFigures(iterations);
  const avg = (f: (x: GpuIterationFigures) => number) => iterations.reduce((a, x) => a + f(x), 0) / iterations.length;
  const throughput = {
    training: spread(iterations.map((x) => trainingStepsPerSecond(x.envSteps, x.seconds))),
    rollout: spread(iterations.map((x) => x.envSteps / x.rolloutSeconds)),
  };
  log(`  training env steps/s (whole iteration): ${formatSpread(throughput.training)}`);
  log(`  rollout env steps/s (rollout alone): ${formatSpread(throughput.rollout)}`);
  return {
    case: name,
    seeds,
    settings,
    runs,
    horizon: config.horizon,
    shape,
    iterations,
    mean: { ...mean, envSteps: avg((x) => x.envSteps), seconds: avg((x) => x.seconds) },
    throughput,
    fallbacks: gpuPathFallbacks(all),
  };
}

function formatFigures(f: GpuIterationFigures): string {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(2)} MiB`;
  return (
    `${f.dispatches} dispatches, ${f.submits} submits, ${f.readBacks} read-backs (${mib(f.bytesReadBack)}), ` +
    `${mib(f.bytesWritten)} written by the host (${f.writes} writes, ${f.mappedWrites} mapped: ${mib(f.bytesWrittenMapped)}), ` +
    `${f.pipelines} pipelines created, ${f.envSteps} env steps, path ${pathLabel(f)} (rollout/update/metrics); host outside GPU waits ${f.hostMs.toFixed(0)} ms wall` +
    (f.hostCpuMs === null ? '' : `, ${f.hostCpuMs.toFixed(0)} ms main-thread CPU (it waited ${f.runQueueMs?.toFixed(0)} ms for a core)`) +
    `; GPU waits ${f.gpuWaitMs.toFixed(0)} ms; ${f.seconds.toFixed(2)} s on this adapter`
  );
}

/** The targets' checks for the measured cases: each case's own, and each 4,096-run case against its twin when both ran. */
function verdict(cases: readonly GpuCaseReport[]): { title: string; checks: TargetCheck[] }[] {
  const byName = new Map(cases.map((c) => [c.case, c]));
  const out: { title: string; checks: TargetCheck[] }[] = [];
  for (const c of cases) {
    const spec = CASES[c.case];
    const checks = [...steadyChecks(c.mean), ...(spec.defaults ? defaultsChecks(c.mean) : [])];
    out.push({ title: `${c.case} (${c.settings})`, checks });
    const twin = spec.twin ? byName.get(spec.twin) : undefined;
    if (twin) out.push({ title: `${c.case} against ${twin.case} (same horizon, ${c.runs} against ${twin.runs} runs)`, checks: scaleChecks(twin.mean, c.mean) });
  }
  return out;
}

/** One case at 1 seed and at K seeds: what an iteration asks of the WebGPU API, and what it trains per second. */
export interface SeedComparison {
  case: string;
  seeds: [1, number];
  dispatches: [number, number];
  submits: [number, number];
  readBacks: [number, number];
  bytesReadBack: [number, number];
  /** Training env steps per second (all seeds' steps over each whole iteration), medians. */
  trainingStepsPerSecond: [number, number];
  /** Whether the K-seed iteration issues no more dispatches, submits and read-backs than the 1-seed one. */
  countsFlat: boolean;
}

function compareSeeds(one: GpuCaseReport, k: GpuCaseReport): SeedComparison {
  const pair = (f: (c: GpuCaseReport) => number): [number, number] => [f(one), f(k)];
  const dispatches = pair((c) => c.mean.dispatches);
  const submits = pair((c) => c.mean.submits);
  const readBacks = pair((c) => c.mean.readBacks);
  return {
    case: one.case,
    seeds: [1, k.seeds],
    dispatches,
    submits,
    readBacks,
    bytesReadBack: pair((c) => c.mean.bytesReadBack),
    trainingStepsPerSecond: pair((c) => c.throughput.training.median),
    countsFlat: [dispatches, submits, readBacks].every(([a, b]) => b <= a),
  };
}

function formatSeedComparison(c: SeedComparison): string {
  const two = ([a, b]: [number, number], digits = 0) => `${a.toFixed(digits)} → ${b.toFixed(digits)}`;
  const kib = ([a, b]: [number, number]) => `${(a / 1024).toFixed(1)} → ${(b / 1024).toFixed(1)} KiB`;
  return (
    `  ${c.case}, 1 → ${c.seeds[1]} seeds: ${two(c.dispatches)} dispatches, ${two(c.submits)} submits, ${two(c.readBacks)} read-backs (${kib(c.bytesReadBack)}); ` +
    `training env steps/s ${two(c.trainingStepsPerSecond)} (${(c.trainingStepsPerSecond[1] / c.trainingStepsPerSecond[0]).toFixed(2)}× the 1-seed figure); ` +
    `counts ${c.countsFlat ? 'do not grow with seeds' : 'GROW with seeds'}`
  );
}

async function main(): Promise<number> {
  const { config, flags, help } = parseFlags(process.argv.slice(2), FLAGS, base);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (config.backend !== 'webgpu') throw new UsageError(`--backend must be webgpu for bench:gpu (it counts WebGPU calls); got ${config.backend}`);
  const names = (flags.cases ?? DEFAULT_CASES).split(',').map((s) => s.trim());
  for (const n of names) if (!(n in CASES)) throw new UsageError(`--cases: unknown case ${JSON.stringify(n)}; known cases: ${Object.keys(CASES).join(', ')}`);
  const json = flags.json === true;
  const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const backend = await initNodeBackend('webgpu');
  log(`bench:gpu on ${backend.describe}; counts from the WebGPU API; estimate: ${COST_MODEL.source}`);
  log(
    flags.viewed
      ? "every iteration's batch is read for the page's views (the page at normal speed)"
      : 'iterations the page does not draw (no batch read for its views; --viewed reads one every iteration)',
  );
  const cases: GpuCaseReport[] = [];
  const seedCases: GpuCaseReport[] = [];
  const measureWith = (name: string, seeds: number) =>
    measureCase(
      name,
      { ...config, ...CASES[name].settings },
      flags.warmup ?? 1,
      flags.measure ?? MIN_MEASURED_ITERATIONS,
      flags.viewed === true,
      seeds,
      backend,
      log,
    );
  try {
    for (const name of names) {
      cases.push(await measureWith(name, 1));
      if (flags.seeds !== undefined) seedCases.push(await measureWith(name, flags.seeds));
    }
  } finally {
    backend.close();
  }
  const targets = verdict(cases);
  log('Targets of the GPU-native iteration, per steady iteration (counts: any adapter; host ms: this machine):');
  for (const t of targets) for (const line of formatChecks(t.title, t.checks)) log(line);
  const seedComparisons = seedCases.map((k, i) => compareSeeds(cases[i], k));
  if (seedComparisons.length > 0) {
    log(
      `1 seed against ${flags.seeds} seeds, per steady iteration (means; counts: any adapter; env steps/s: this adapter, medians over each whole iteration):`,
    );
    for (const c of seedComparisons) log(formatSeedComparison(c));
  }
  if (json)
    console.log(
      JSON.stringify(
        {
          adapter: backend.describe,
          costModel: COST_MODEL,
          targets: TARGETS,
          cases,
          verdict: targets,
          ...(seedCases.length > 0 ? { seedCases, seedComparisons } : {}),
        },
        null,
        1,
      ),
    );
  return flags['require-gpu-path']
    ? requireGpuPath(
        'bench:gpu',
        cases.flatMap((c) => c.fallbacks.map((f) => `${c.case}, ${f}`)),
      )
    : 0;
}

runCommand(main, USAGE);
