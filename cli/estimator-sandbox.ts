/**
 * The estimator sandbox for the Node commands (train, study, advantages) and tests: a worker thread per
 * estimator (cli/estimator-worker.ts), terminated when a call runs over `--estimatorTimeout`.
 */
import { readFileSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { EstimatorSandbox, type SandboxWorker } from '../src/estimator/sandbox-host.ts';
import type { SandboxReply } from '../src/estimator/sandbox-core.ts';
import { UsageError } from './flags.ts';

/** A line the visitor's code wrote to its console, sent by the worker (cli/estimator-worker.ts). */
export interface ConsoleLine {
  type: 'console';
  text: string;
}

function spawnWorkerThread(): SandboxWorker {
  const worker = new Worker(new URL('./estimator-worker-boot.mjs', import.meta.url), {
    workerData: { entry: new URL('./estimator-worker.ts', import.meta.url).href },
    // The visitor's console output goes to our stderr: stdout carries the commands' JSON.
    stdout: true,
    stderr: true,
  });
  worker.stdout.pipe(process.stderr);
  worker.stderr.pipe(process.stderr);
  // A terminated worker must not keep the command alive, and neither must an idle one.
  worker.unref();
  let terminated = false;
  return {
    post: (request, transfer) => worker.postMessage(request, transfer),
    onReply: (listener) =>
      worker.on('message', (reply: SandboxReply | ConsoleLine) => {
        // Written at once, before the reply after it is handled (the same port keeps their order).
        if (reply.type === 'console') writeSync(2, `${reply.text}\n`);
        else listener(reply);
      }),
    onCrash: (listener) => {
      worker.on('error', (e) => listener(e instanceof Error ? e.message : String(e)));
      worker.on('exit', (code) => {
        if (!terminated) listener(`exit code ${code}`);
      });
    },
    terminate: () => {
      terminated = true;
      void worker.terminate();
    },
  };
}

/** A sandbox for the estimator source `source`, with a limit of `timeoutS` seconds per call. */
export function nodeEstimatorSandbox(source: string, timeoutS?: number): EstimatorSandbox {
  return new EstimatorSandbox(source, spawnWorkerThread, timeoutS);
}

/** The source of `--estimator FILE`: a UsageError naming the flag when it cannot be read. */
export function readEstimatorSource(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--estimator: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
