/**
 * `npm run bench:estimator [-- --iters N --backend B --name value …]`: what running your own estimator
 * costs on top of the estimator itself, at the page's defaults (src/page/page-defaults.ts).
 *
 * The custom method trains with GRPO written against the estimator interface (src/estimator/templates.ts),
 * in Node's worker-thread sandbox (the page uses a worker in its sandboxed estimator frame, with the same core). Per iteration, the
 * overhead is the custom engine's advantage time (the record's `ms.advantage`: copying the batch into
 * transferable typed arrays, the hand-over, the batch view, the checks of the result, the hand-back and
 * the tensor) less the time spent inside the visitor's estimate(); it is printed as a share of the whole
 * iteration (rollout + advantages + update). The page's target is at most 5%.
 */
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { nodeEstimatorSandbox } from '../cli/estimator-sandbox.ts';
import { initNodeBackend } from '../cli/node-backend.ts';
import { GRPO_TEMPLATE } from '../src/estimator/templates.ts';
import { PAGE_DEFAULT_CONFIG } from '../src/page/page-defaults.ts';
import { createCustomAdvantageEngine } from '../src/engine/custom-advantage-engine.ts';
import { TrainingRun } from '../src/trainer/run.ts';

const base = { ...PAGE_DEFAULT_CONFIG, method: 'custom', backend: 'wasm', iters: 10 } as const;
const FLAGS = { json: { kind: 'switch', doc: 'print one JSON object instead of a table' } } as const;
const USAGE = `usage: npm run bench:estimator [-- --json] [-- --name value …]\n${flagsHelp(FLAGS, base)}`;

async function main(): Promise<number> {
  const { config, flags, help } = parseFlags(process.argv.slice(2), FLAGS, base);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const backend = await initNodeBackend(config.backend);
  const sandbox = nodeEstimatorSandbox(GRPO_TEMPLATE);
  const run = new TrainingRun({ ...config, method: 'custom' }, createCustomAdvantageEngine(sandbox, GRPO_TEMPLATE));
  const rows: { iteration: number; steps: number; iterationMs: number; advantageMs: number; estimateMs: number; overheadMs: number; share: number }[] = [];
  try {
    await run.run((r) => {
      const iterationMs = r.ms.rollout + r.ms.advantage + r.ms.update;
      const overheadMs = r.ms.advantage - sandbox.lastEstimateMs;
      rows.push({
        iteration: r.iteration,
        steps: r.envSteps,
        iterationMs,
        advantageMs: r.ms.advantage,
        estimateMs: sandbox.lastEstimateMs,
        overheadMs,
        share: overheadMs / iterationMs,
      });
    });
  } finally {
    run.dispose();
    backend.close();
  }
  // The first iteration also starts the worker thread and loads the module: reported, not averaged.
  const steady = rows.slice(1);
  const mean = (k: keyof (typeof rows)[number]) => steady.reduce((a, r) => a + r[k], 0) / steady.length;
  const summary = {
    backend: backend.describe,
    env: config.env,
    horizon: config.horizon,
    tasksPerIteration: config.tasksPerIteration,
    groupSize: config.groupSize,
    iterations: steady.length,
    meanSteps: mean('steps'),
    meanIterationMs: mean('iterationMs'),
    meanOverheadMs: mean('overheadMs'),
    meanEstimateMs: mean('estimateMs'),
    overheadShare: mean('overheadMs') / mean('iterationMs'),
    maxShare: Math.max(...steady.map((r) => r.share)),
    target: 0.05,
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...summary, rows })}\n`);
    return 0;
  }
  const f = (x: number, d = 2) => x.toFixed(d).padStart(9);
  process.stdout.write(
    `custom method (GRPO template) at page defaults: ${config.env} ${config.horizon}, N = ${config.tasksPerIteration}, G = ${config.groupSize}, ${summary.backend}\n`,
  );
  process.stdout.write(
    `${'iter'.padStart(5)}${'steps'.padStart(7)}${'iter ms'.padStart(9)}${'adv ms'.padStart(9)}${'est ms'.padStart(9)}${'over ms'.padStart(9)}${'share'.padStart(9)}\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `${String(r.iteration).padStart(5)}${String(r.steps).padStart(7)}${f(r.iterationMs, 1)}${f(r.advantageMs)}${f(r.estimateMs)}${f(r.overheadMs)}${f(100 * r.share)}%\n`,
    );
  process.stdout.write(
    `iterations 2–${rows.length}: overhead ${summary.meanOverheadMs.toFixed(2)} ms of ${summary.meanIterationMs.toFixed(0)} ms per iteration = ${(100 * summary.overheadShare).toFixed(2)}% (max ${(100 * summary.maxShare).toFixed(2)}%; target ≤ 5%)\n`,
  );
  return 0;
}

runCommand(main, USAGE);
