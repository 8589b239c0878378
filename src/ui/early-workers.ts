/**
 * Starts what the race the URL asks for will wait on, before the page builds itself (main.ts imports this
 * first): the training workers, whose scripts load while the page renders and reads its saved runs (the
 * training controller takes them over, src/worker/worker-client.ts); under `auto`, the adapter request
 * that keys the remembered verdict; and the shipped SFT prior where the race may start from it.
 * Names as the controller gives them.
 */
import { readPageState } from '../page/url-state.ts';
import { takeEstimatorParam } from '../page/estimator-share.ts';
import { prefetchShippedPrior } from '../page/shipped-prior.ts';
import { raceEntry } from '../race/entries.ts';
import { anyVerdictChose } from '../page/backend-verdict.ts';
import { isTrainingWorkerScript, sendToEarlyWorkers, startTrainingWorkersEarly } from '../worker/worker-client.ts';
import { pageStorage, requestAdapterEarly } from './controllers/backend-probe-controller.ts';
import { threadsPerWorker } from './controllers/race-start.ts';

const { config, page } = readPageState(takeEstimatorParam(location.search).rest);
startTrainingWorkersEarly(page.methods.map((m) => `training-${m}`));
if (config.backend === 'auto') requestAdapterEarly();
if (page.methods.length) prefetchShippedPrior(config, raceEntry(page.methods[0]).method);
// The race will start on wasm (forced, or `auto` where no verdict of this browser chose WebGPU): the
// workers ready it as soon as their scripts have run, with the threads the controller gives them; its
// own `warm` then finds wasm selected.
const storage = pageStorage();
if (config.backend === 'wasm' || (config.backend === 'auto' && !(storage && anyVerdictChose(storage, 'webgpu'))))
  sendToEarlyWorkers({ type: 'warm', backend: 'wasm', wasmThreads: threadsPerWorker(page.methods.length) });

/** The longest the page waits for its workers' scripts before it builds itself. */
const WORKER_START_WAIT_MS = 250;

/**
 * Resolves once every early worker's script has arrived (the page's resource timing lists it) and this
 * thread has been free for one more turn, or after WORKER_START_WAIT_MS. Chromium starts a worker's thread
 * from the page's thread once its script has arrived: a page that builds itself first (one long task,
 * hundreds of ms on a busy machine) holds every worker back by as long. Where a browser lists no worker
 * scripts, the page waits the bound and builds itself.
 */
export function earlyWorkersStarting(): Promise<void> {
  const wanted = page.methods.length;
  const arrived = () => performance.getEntriesByType('resource').filter((r) => isTrainingWorkerScript(r.name)).length >= wanted;
  return new Promise((resolve) => {
    let observer: PerformanceObserver | null = null;
    const done = () => {
      observer?.disconnect();
      clearTimeout(bound);
      setTimeout(resolve, 0); // the turn in which the threads start
    };
    const bound = setTimeout(done, WORKER_START_WAIT_MS);
    if (wanted === 0 || arrived()) return done();
    try {
      observer = new PerformanceObserver(() => {
        if (arrived()) done();
      });
      observer.observe({ type: 'resource' });
    } catch {
      // No resource timing: the bound decides.
    }
  });
}
