/**
 * `npm run bench:train [-- --iters N --env E --horizon H --backend B --methods M,… --seeds K --skipUpdateRate --require-gpu-path --json]`:
 * iteration time and its split (rollout / advantage / update / critic) for every registered method,
 * training and rollout env steps per second as min / median / max (throughput.ts says what each divides),
 * the path each phase took (iteration-path.ts) and any fallback's reason, the backend's threads, BEACON's
 * extra cost over GRPO, and the PPO update's cost and achieved rate (update-rate.ts). `--json` prints one
 * JSON object. The first 2 iterations are warm-up; the default 20 leave 18 measured. `--seeds K` also
 * trains every method with 1 and with K seeds through SeedRuns (one batch on webgpu, one seed after the
 * other on wasm and cpu), an iteration of each in turn, and prints their training env steps per second
 * and iteration times side by side (the WebGPU calls an iteration makes: `bench:gpu --seeds K`).
 *
 * The methods' policies diverge after the first update, so their rollouts differ in length and
 * whole-iteration times are not a like-for-like comparison. The extra cost is therefore measured on
 * the same batches: every BEACON batch is also run through the GRPO estimator, and the difference of
 * the two estimators' times is divided by BEACON's iteration time.
 */
import { estimateAdvantages as computeAdvantages } from '../src/methods/registry.ts';
import { advantageSettings, DEFAULT_CONFIG } from '../src/config.ts';
import { METHOD_NAMES } from '../src/methods/registry.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { flagsHelp, parseFlags, runCommand, UsageError } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';
import type { IterationRecord } from '../src/trainer/iteration-record.ts';
import { MAX_SEEDS, seedsLimitIssue } from '../src/setting-limits.ts';
import { compareSeedThroughput, formatSeedThroughput, type SeedThroughput } from './seed-batch.ts';
import { formatUpdateRate, measureUpdateRate } from './update-rate.ts';
import { formatSpread, gpuPathFallbacks, pathLabel, REQUIRE_GPU_PATH_FLAG, requireGpuPath, throughputOf, withThreads } from './throughput.ts';

/** Iterations left out of the figures: the first carry JIT and backend warm-up. */
const WARMUP = 2;

const base = { ...DEFAULT_CONFIG, env: 'gridhouse', horizon: 'long', backend: 'wasm', iters: 20 } as const;
const FLAGS = {
  json: { kind: 'switch', doc: 'print one JSON object instead of tables' },
  methods: { kind: 'string', doc: `comma-separated methods to time (default: all of ${METHOD_NAMES.join(', ')})`, placeholder: 'list' },
  seeds: {
    kind: { type: 'int', min: 2, max: MAX_SEEDS.webgpu },
    doc: 'also train every method with 1 and with K seeds through SeedRuns, an iteration of each in turn, and print their training env steps/s side by side',
  },
  skipUpdateRate: { kind: 'switch', doc: 'leave out the update-rate measurement (bench:device, for its time budget)' },
  ...REQUIRE_GPU_PATH_FLAG,
} as const;
const USAGE = `usage: npm run bench:train [-- --json] [-- --name value …]\n${flagsHelp(FLAGS, base)}`;

async function main(): Promise<number> {
  const { config, flags, help } = parseFlags(process.argv.slice(2), FLAGS, base);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const json = flags.json === true;
  const methods = flags.methods === undefined ? METHOD_NAMES : flags.methods.split(',').map((m) => m.trim());
  for (const m of methods)
    if (!(METHOD_NAMES as readonly string[]).includes(m))
      throw new UsageError(`--methods: unknown method ${JSON.stringify(m)}; known methods: ${METHOD_NAMES.join(', ')}`);
  if (config.iters <= WARMUP)
    throw new UsageError(`--iters must be over ${WARMUP} (the first ${WARMUP} are warm-up, left out of the figures); got ${config.iters}`);
  const tooManySeeds = flags.seeds === undefined ? null : seedsLimitIssue(flags.seeds, config.backend);
  if (tooManySeeds) throw new UsageError(`--${tooManySeeds}`);
  const backend = await initNodeBackend(config.backend);
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const rows: Record<string, string | number>[] = [];
  const throughputs: Record<string, ReturnType<typeof throughputOf>> = {};
  let beaconIterMs = 0;
  const repeats = 20; // estimator timings are sub-millisecond: repeat to resolve them
  let extraMs = 0;
  const fallbacks: string[] = [];
  for (const method of methods as typeof METHOD_NAMES) {
    const run = new TrainingRun({ ...config, method }, backend.advantageEngine(method));
    const records: IterationRecord[] = [];
    const extra: number[] = [];
    await run.run((record) => {
      records.push(record);
      if (method === 'beacon' && run.trainer.lastBatch) {
        const { batch } = run.trainer.lastBatch;
        const time = (m: 'grpo' | 'beacon') => {
          const t0 = performance.now();
          for (let r = 0; r < repeats; r++) computeAdvantages(batch, advantageSettings({ ...config, method: m }));
          return (performance.now() - t0) / repeats;
        };
        time('beacon'); // warm up
        extra.push(time('beacon') - time('grpo'));
      }
    });
    run.dispose();
    fallbacks.push(...gpuPathFallbacks(records).map((f) => `${method}, ${f}`));
    const steady = records.slice(WARMUP);
    const throughput = throughputOf(steady);
    const paths = [...new Set(records.map(pathLabel))].join(', ');
    const split = {
      rollout: mean(steady.map((r) => r.ms.rollout)),
      advantage: mean(steady.map((r) => r.ms.advantage)),
      update: mean(steady.map((r) => r.ms.update)),
      critic: mean(steady.map((r) => r.ms.critic ?? 0)),
    };
    const total = split.rollout + split.advantage + split.update + split.critic;
    if (method === 'beacon') {
      beaconIterMs = total;
      extraMs = mean(extra.slice(2));
    }
    rows.push({
      method,
      'iteration ms': total.toFixed(1),
      'rollout ms': split.rollout.toFixed(1),
      'advantage ms': split.advantage.toFixed(2),
      'update ms': split.update.toFixed(1),
      'critic ms': split.critic.toFixed(1),
      'steps/iter': mean(steady.map((r) => r.envSteps)).toFixed(0),
      'env steps/s': mean(steady.map((r) => r.envStepsPerSecond)).toFixed(0),
      'training env steps/s': formatSpread(throughput.training),
      'rollout env steps/s': formatSpread(throughput.rollout),
      'path (rollout/update/metrics)': paths,
    });
    throughputs[method] = throughput;
  }
  const update = flags.skipUpdateRate ? null : await measureUpdateRate(config, backend);
  const seedThroughput: Record<string, SeedThroughput> = {};
  if (flags.seeds !== undefined)
    for (const method of methods as typeof METHOD_NAMES)
      seedThroughput[method] = await compareSeedThroughput({ ...config, method }, flags.seeds, () => backend.advantageEngine(method), WARMUP);
  backend.close();
  const share = (100 * extraMs) / beaconIterMs;
  if (json) {
    console.log(
      JSON.stringify(
        {
          env: config.env,
          horizon: config.horizon,
          backend: backend.describe,
          threads: backend.threads,
          iterations: rows,
          throughput: throughputs,
          fallbacks,
          beaconExtraMs: extraMs,
          beaconExtraShare: share / 100,
          update,
          ...(flags.seeds === undefined ? {} : { seedThroughput }),
        },
        null,
        1,
      ),
    );
    return flags['require-gpu-path'] ? requireGpuPath('bench:train', fallbacks) : 0;
  }
  console.log(
    `bench:train ${config.env}/${config.horizon}, backend ${withThreads(backend)}, ${config.tasksPerIteration}×${config.groupSize} runs/iteration, ${config.iters} iterations per method (first ${WARMUP} excluded)`,
  );
  console.log(
    'training env steps/s: env steps over the whole iteration (rollout, advantages, update, metrics, critic); rollout env steps/s: over the rollout alone',
  );
  console.table(rows);
  for (const f of fallbacks) console.log(`fallback: ${f}`);
  if (beaconIterMs > 0)
    console.log(
      `BEACON's extra cost over GRPO on the same batches: ${extraMs.toFixed(3)} ms per iteration = ${share.toFixed(3)}% of iteration time (target < 3%): ${share < 3 ? 'met' : 'NOT met'}`,
    );
  if (update) console.log(formatUpdateRate(update));
  if (flags.seeds !== undefined) {
    console.log(
      `1 seed against ${flags.seeds} seeds through SeedRuns (an iteration of each in turn; training env steps/s: all seeds' env steps over each whole iteration, on ${withThreads(backend)}):`,
    );
    for (const [method, t] of Object.entries(seedThroughput)) console.log(formatSeedThroughput(method, t));
  }
  return flags['require-gpu-path'] ? requireGpuPath('bench:train', fallbacks) : 0;
}

runCommand(main, USAGE);
