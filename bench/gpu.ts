/**
 * `npm run bench:gpu [-- --cases gridhouse,texthouse,shop,gridhouse-4096,texthouse-4096 --measure N --json]
 *   [--name value …]`: what one training iteration asks of the WebGPU API, counted by wrapping the API
 * itself (src/backend/webgpu-call-counter.ts), on tfjs's webgpu backend in Node (Dawn).
 *
 * Per case and per measured iteration it prints compute dispatches, queue submits, buffer read-backs,
 * bytes read back, buffer writes, the seconds on this adapter, and a real-GPU estimate of the call
 * overhead from a stated cost model (gpu-cost-model.ts), labelled as an estimate. The counts do not
 * depend on the adapter; the seconds do (SwiftShader runs the kernels on the CPU).
 *
 * Cases: `gridhouse`, `texthouse` and `shop` are the page defaults (long horizon, 8 × 8 runs, width 64,
 * BEACON) in each environment; the `-4096` cases use 64 × 64 = 4,096 runs. Setting flags apply to every
 * case before the case's own changes. The first iteration (the SFT prior, shader compilation) is run
 * and left out; `--measure` iterations follow it.
 */
import { flagsHelp, parseFlags, runCommand, UsageError } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounts } from '../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { COST_MODEL, estimateRealGpuSeconds, type GpuEstimate } from './gpu-cost-model.ts';

const CASES: Record<string, Partial<TrainConfig>> = {
  gridhouse: { env: 'gridhouse' },
  texthouse: { env: 'texthouse' },
  shop: { env: 'shop' },
  'gridhouse-4096': { env: 'gridhouse', tasksPerIteration: 64, groupSize: 64 },
  'texthouse-4096': { env: 'texthouse', tasksPerIteration: 64, groupSize: 64 },
  'shop-4096': { env: 'shop', tasksPerIteration: 64, groupSize: 64 },
};
const DEFAULT_CASES = 'gridhouse,texthouse,shop,gridhouse-4096,texthouse-4096';

const base: TrainConfig = { ...DEFAULT_CONFIG, backend: 'webgpu' };
const FLAGS = {
  cases: { kind: 'string', doc: `comma-separated cases among ${Object.keys(CASES).join(', ')}; default ${DEFAULT_CASES}` },
  measure: { kind: { type: 'int', min: 1, max: 100 }, doc: 'iterations measured per case after the first; default 1' },
  json: { kind: 'switch', doc: 'print one JSON object instead of lines' },
} as const;
const USAGE = `usage: npm run bench:gpu [-- --cases LIST --measure N --json] [-- --name value …]\n${flagsHelp(FLAGS, base)}`;

export interface GpuIterationFigures extends WebGpuCallCounts {
  iteration: number;
  seconds: number;
  envSteps: number;
  /** Real-GPU estimate of the call overhead (an estimate, see gpu-cost-model.ts). */
  estimate: GpuEstimate;
}

export interface GpuCaseReport {
  case: string;
  settings: string;
  iterations: GpuIterationFigures[];
}

async function measureCase(
  name: string,
  config: TrainConfig,
  measure: number,
  backend: Awaited<ReturnType<typeof initNodeBackend>>,
  log: (line: string) => void,
): Promise<GpuCaseReport> {
  const counter = installWebGpuCallCounter();
  const settings = `${config.env}/${config.horizon}, ${config.tasksPerIteration}×${config.groupSize} runs, width ${config.hiddenSize}, ${config.method}`;
  log(`${name}: ${settings}`);
  const run = new TrainingRun({ ...config, iters: measure + 1 }, backend.advantageEngine(config.method));
  const iterations: GpuIterationFigures[] = [];
  try {
    for (let i = 0; i <= measure; i++) {
      const before = counter.read();
      const t0 = performance.now();
      const record = await run.step();
      const seconds = (performance.now() - t0) / 1000;
      if (!record) throw new Error(`${name}: training stopped at iteration ${i + 1}: ${run.halted ?? 'no record'}`);
      const calls = callsBetween(before, counter.read());
      const figures = { iteration: record.iteration, seconds, envSteps: record.envSteps, ...calls, estimate: estimateRealGpuSeconds(calls) };
      log(`  iteration ${figures.iteration}${i === 0 ? ' (first: SFT prior and shader compilation, not measured)' : ''}: ${formatFigures(figures)}`);
      if (i > 0) iterations.push(figures);
    }
  } finally {
    run.dispose();
  }
  return { case: name, settings, iterations };
}

function formatFigures(f: GpuIterationFigures): string {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(2)} MiB`;
  return `${f.dispatches} dispatches, ${f.submits} submits, ${f.readBacks} read-backs (${mib(f.bytesReadBack)}), ${f.writes} writes (${mib(f.bytesWritten)}), ${f.envSteps} env steps, ${f.seconds.toFixed(2)} s on this adapter; real-GPU ESTIMATE of call overhead ${f.estimate.lowSeconds.toFixed(2)}–${f.estimate.highSeconds.toFixed(2)} s`;
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
  const cases: GpuCaseReport[] = [];
  try {
    for (const name of names) cases.push(await measureCase(name, { ...config, ...CASES[name] }, flags.measure ?? 1, backend, log));
  } finally {
    backend.close();
  }
  if (json) console.log(JSON.stringify({ adapter: backend.describe, costModel: COST_MODEL, cases }, null, 1));
  return 0;
}

runCommand(main, USAGE);
