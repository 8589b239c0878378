/**
 * The estimator sandbox for the Node commands (train, study, advantages) and tests: a worker thread per
 * estimator (cli/estimator-worker.ts), terminated when a call runs over `--estimatorTimeout`.
 *
 * `--estimator FILE` is a local file run with the rights of the user who runs the command, like any
 * script. Where Node has its permission model (the flag of `nodePermissionFlag`), the worker runs under
 * it: it may not read or write files, start a child process or a worker of its own (docs/estimator.md).
 * The model restricts a worker thread given the flags in its `execArgv`, leaving the command itself
 * alone. So that the worker needs no file at all, its script (cli/estimator-worker.ts and what it
 * imports) is bundled once per process by esbuild and started from a data: URL: tsx's loader would read
 * files and run its hooks on a worker of their own, and a worker allowed to start workers could start one
 * without these limits.
 */
import { readFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { EstimatorSandbox, type SandboxWorker } from '../src/estimator/sandbox-host.ts';
import type { SandboxReply } from '../src/estimator/sandbox-core.ts';
import { UsageError } from './flags.ts';

/** A line the visitor's code wrote to its console, sent by the worker (cli/estimator-worker.ts). */
export interface ConsoleLine {
  type: 'console';
  text: string;
}

/**
 * The flag that turns Node's permission model on: `--permission` (Node 22.13 and 23.5 on),
 * `--experimental-permission` (Node 20 and 21), or null where this Node has neither.
 */
export function nodePermissionFlag(flags: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string | null {
  if (flags.has('--permission')) return '--permission';
  if (flags.has('--experimental-permission')) return '--experimental-permission';
  return null;
}

/**
 * The estimator worker's `execArgv`: the permission model with nothing allowed (no --allow-* flag). Its
 * experimental warning is not the visitor's output, so it is kept off stderr.
 */
export function estimatorWorkerExecArgv(flag: string | null = nodePermissionFlag()): string[] {
  return flag === null ? [] : [flag, '--disable-warning=ExperimentalWarning'];
}

let workerScript: URL | null = null;

/** cli/estimator-worker.ts bundled into one ES module, as a data: URL (built on first use). */
function estimatorWorkerScript(): URL {
  if (workerScript) return workerScript;
  const built = buildSync({
    entryPoints: [fileURLToPath(new URL('./estimator-worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  workerScript = new URL(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].contents).toString('base64')}`);
  return workerScript;
}

function spawnWorkerThread(): SandboxWorker {
  const worker = new Worker(estimatorWorkerScript(), {
    execArgv: estimatorWorkerExecArgv(),
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
