// A worker thread starts as plain Node, without the tsx loader of the command that spawned it (and
// without vitest's): register it here, then run the TypeScript worker (cli/estimator-worker.ts).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
