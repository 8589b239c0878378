/**
 * The study's worker pool: trains a list of runs on worker threads (cli/study-worker.ts), one run per
 * worker at a time, with a heartbeat and an ETA on stdout. The study (cli/study.ts) and its race of a
 * visitor's estimator (cli/study-estimator.ts) both train through it.
 */
import { Worker } from 'node:worker_threads';
import { type EtaModel, formatDuration } from '../src/study/eta.ts';
import { runConfig, runKey, stepBudget, type RunSpec } from '../src/study/matrix.ts';
import type { StudyBudget } from '../src/study/profile.ts';
import type { RunResult } from '../src/study/summary.ts';
import { variantSpec } from '../src/study/variants.ts';
import type { EstimatorCode } from '../src/worker/protocol.ts';
import type { FromWorker, ToWorker } from './study-worker.ts';

export interface PoolOptions {
  profile: { budget: StudyBudget };
  workers: number;
  /** The visitor's estimator, for runs of the custom method. */
  estimator?: EstimatorCode;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * A study worker thread. tsx hooks the main thread only, so the worker registers it again (both hooks,
 * as the tsx command does: tfjs-core's dist files are ESM syntax in a CommonJS package) before loading
 * cli/study-worker.ts.
 */
function startWorker(): Worker {
  const workerUrl = new URL('./study-worker.ts', import.meta.url);
  const boot = `import { register as esm } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
    import { register as cjs } from ${JSON.stringify(import.meta.resolve('tsx/cjs/api'))};
    esm(); cjs(); await import(${JSON.stringify(workerUrl.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`));
}

/** Trains `todo` on `workers` threads; calls `finished` for each result as it arrives. */
export async function runAll(todo: RunSpec[], options: PoolOptions, eta: EtaModel, finished: (spec: RunSpec, result: RunResult) => void): Promise<string[]> {
  const { budget } = options.profile;
  const queue = [...todo];
  const total = todo.length;
  const running = new Map<string, { spec: RunSpec; envSteps: number }>();
  const failures: string[] = [];
  let done = 0;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const status = () =>
    `elapsed ${formatDuration(elapsed())} · about ${formatDuration(eta.secondsLeft(queue, [...running.values()], Math.min(options.workers, queue.length + running.size) || 1))} left`;
  const heartbeat = setInterval(() => {
    const now = [...running.values()].map((r) => `${runKey(r.spec)} ${Math.round((100 * r.envSteps) / stepBudget(r.spec, budget))}%`).join(', ');
    log(`  … ${done}/${total} runs done; running ${now}; ${status()}`);
  }, 60_000);
  const workerCount = Math.min(options.workers, total);

  await Promise.all(
    Array.from(
      { length: workerCount },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = startWorker();
          let current: RunSpec | null = null;
          const next = () => {
            current = queue.shift() ?? null;
            if (!current) {
              void worker.terminate().then(() => resolve());
              return;
            }
            running.set(runKey(current), { spec: current, envSteps: 0 });
            worker.postMessage({
              type: 'run',
              spec: current,
              config: runConfig(current, budget),
              envStepBudget: stepBudget(current, budget),
              overrides: variantSpec(current.variant).overrides,
              ...(options.estimator ? { estimator: options.estimator } : {}),
            } satisfies ToWorker);
          };
          worker.on('message', (m: FromWorker) => {
            if (m.type === 'ready') return next();
            const r = running.get(m.key);
            if (m.type === 'progress') {
              if (r) r.envSteps = m.envSteps;
              return;
            }
            running.delete(m.key);
            done++;
            if (m.type === 'done' && current) {
              eta.observe({ spec: current, envSteps: m.result.envSteps, seconds: m.result.seconds });
              finished(current, m.result);
              log(
                `[${String(done).padStart(String(total).length)}/${total}] ${m.key}: final success ${(100 * m.result.finalSuccess).toFixed(0)}% after ${m.result.iterations} iterations, ${m.result.envSteps} steps, in ${formatDuration(m.result.seconds)}${m.result.stopped ? ` (stopped: ${m.result.stopped})` : ''} · ${status()}`,
              );
            } else if (m.type === 'failed') {
              failures.push(`${m.key}: ${m.error}`);
              log(`[${done}/${total}] ${m.key} FAILED: ${m.error.split('\n')[0]}`);
            }
            next();
          });
          worker.on('error', reject);
        }),
    ),
  );
  clearInterval(heartbeat);
  return failures;
}
