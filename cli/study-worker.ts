/**
 * One study worker thread: selects the wasm backend once, then trains the runs the parent sends, one
 * after another, and answers with each run's summary (src/study/summary.ts), never its raw records.
 * A run first measures its starting policy (iteration 0, the SFT prior), then trains whole iterations
 * until its environment steps reach the run's env-step budget (or its config's iteration cap).
 *
 * Messages: parent → worker `{ type: 'run', spec, config }`; worker → parent `ready`, `progress`
 * (every iteration), `done` (the run's result) or `failed` (an unexpected error; the run is not stored).
 */
import { parentPort } from 'node:worker_threads';
import type { TrainConfig } from '../src/config.ts';
import { runKey, type RunSpec } from '../src/study/matrix.ts';
import { summarizeRun, type IterationFigures, type RunResult } from '../src/study/summary.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { initNodeBackend } from './node-backend.ts';
import { customEngine } from './custom-method.ts';
import type { EstimatorCode } from '../src/worker/protocol.ts';
import { EstimatorError } from '../src/estimator/failure.ts';

export type ToWorker = {
  type: 'run';
  spec: RunSpec;
  config: TrainConfig;
  envStepBudget: number;
  overrides: Record<string, unknown>;
  estimator?: EstimatorCode;
};
export type FromWorker =
  | { type: 'ready'; backend: string }
  | { type: 'progress'; key: string; iteration: number; envSteps: number; success: number }
  | { type: 'done'; key: string; result: RunResult }
  | { type: 'failed'; key: string; error: string };

const port = parentPort;
if (!port) throw new Error('cli/study-worker.ts runs as a worker thread of cli/study.ts');
const post = (m: FromWorker) => port.postMessage(m);

const backend = await initNodeBackend('wasm');

async function train({ spec, config, envStepBudget, overrides, estimator }: ToWorker): Promise<RunResult> {
  const key = runKey(spec);
  const engine = estimator ? await customEngine(estimator.source, { estimatorTimeout: estimator.timeoutS }) : backend.advantageEngine(config.method);
  const run = new TrainingRun(config, engine);
  const records: IterationFigures[] = [];
  const t0 = performance.now();
  try {
    const start = await run.evaluateStart();
    let steps = 0;
    // A diverged run is a result of its method, kept with the iterations before the stop.
    const result = await run.run((r) => {
      records.push(r);
      steps += r.envSteps;
      if (steps >= envStepBudget) run.stop();
      post({ type: 'progress', key, iteration: r.iteration, envSteps: steps, success: r.success });
    });
    return summarizeRun(spec, records, (performance.now() - t0) / 1000, {
      envStepBudget,
      overrides,
      start: { success: start.success, partial: start.partial },
      stopped: result.message ?? null,
    });
  } finally {
    run.dispose();
  }
}

port.on('message', (m: ToWorker) => {
  const key = runKey(m.spec);
  train(m).then(
    (result) => post({ type: 'done', key, result }),
    // A visitor's estimator failing is its message, not our stack trace.
    (e: unknown) => post({ type: 'failed', key, error: e instanceof EstimatorError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
post({ type: 'ready', backend: backend.describe });
