/**
 * A training worker: selects its own tfjs backend, owns one method's training run, and talks to the page
 * through the typed messages of protocol.ts. The page starts one per raced method, so each method has a
 * core and a backend instance of its own. Training here keeps going in a background tab (workers are not
 * throttled like requestAnimationFrame) and never blocks the page's drawing.
 *
 * The same script serves as a probe worker (`probe`): it times one backend and is then terminated.
 */
// The trainer differentiates with tfjs's gradient registry, which tfjs-core alone leaves empty. The
// core comes first: registering gradients reads its flags.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { TrainingLoop } from './training-loop.ts';
import { WorkerBackend } from './worker-backend.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import { initBackend, setWasmThreads, withholdWebGpu } from '../backend/browser.ts';
import type { BackendName } from '../backend/select.ts';
import { armGpuFault } from '../gpu/fault-injection.ts';
import { advantageEngineName, createAdvantageEngine, rolloutShaders } from '../engine/advantage-engine.ts';
import { probeBackend } from './backend-probe.ts';
import type { RaceConfig } from '../config.ts';
import type { Method } from '../methods/registry.ts';
import { entryConfig } from '../race/entries.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import { sftPrior } from '../trainer/sft-prior.ts';
import type { EstimatorCode, FromWorker, InjectedFault, ToWorker } from './protocol.ts';
import { methodSpec } from '../methods/registry.ts';
import { browserEstimatorSandbox, receiveSandboxPorts } from '../estimator/browser-sandbox.ts';
import { isSandboxPortGrant } from '../estimator/frame-protocol.ts';
import { EstimatorError } from '../estimator/failure.ts';
import { createCustomAdvantageEngine } from '../engine/custom-advantage-engine.ts';
import type { AdvantageEngine } from '../engine/advantage-engine.ts';
import { markOnce, TIMELINE_MARKS } from '../timeline-marks.ts';

markOnce(TIMELINE_MARKS.workerScript);

/** The parts of DedicatedWorkerGlobalScope used here (the project compiles against the DOM lib). */
interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;
/** tfjs's memory between two iterations (when the state was last posted): read by bench/page-soak.ts. */
const hook = self as unknown as { __beaconMemory?: { iteration: number; numTensors: number; numBytes: number } };
const post = (message: FromWorker, transfer: Transferable[] = []) => {
  if (message.type === 'checkpoint') hook.__beaconMemory = { iteration: message.iteration, numTensors: tf.memory().numTensors, numBytes: tf.memory().numBytes };
  scope.postMessage(message, transfer);
};

let lostReason: string | null = null;
/** The page has been told this worker's backend (the prior may have selected it before any trainer). */
let announced = false;
/** The page asked for a `move`: the next backend announcement says where the run continued. */
let moving = false;

const backend = new WorkerBackend((reason) => {
  lostReason = reason;
  loop.deviceLost(reason);
});

/** The kernels' WGSL, once this worker is on WebGPU (loadShaders). */
let shaders: ShaderSources | null = null;

/**
 * Loads the kernels' WGSL (the files Vite inlined, ~0.1 MB, and the WESL linker, ~0.2 MB) when `backend` is
 * WebGPU, the only backend that runs them: a wasm or cpu race never loads, parses or evaluates them.
 */
async function loadShaders(backend: BackendName): Promise<void> {
  if (backend === 'webgpu' && !shaders) shaders = (await import('../gpu/shaders-vite.ts')).VITE_SHADERS;
}

/** The kernels' WGSL for an engine on WebGPU (asked for only there, after loadShaders). */
function loadedShaders(): ShaderSources {
  if (!shaders) throw new Error('the WGSL kernels were asked for before WebGPU was selected');
  return shaders;
}

/** A macrotask turn (MessageChannel is not clamped like setTimeout), or a real pause. */
function wait(ms: number): Promise<void> {
  if (ms > 0) return new Promise((resolve) => setTimeout(resolve, ms));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

const loop: TrainingLoop = new TrainingLoop({
  post,
  wait,
  async prepare(config, method, { force, continuesAt, estimator, fallback }) {
    const { report, changed } = await backend.ensure(config.backend, force || lostReason !== null);
    await loadShaders(report.backend);
    if (changed || lostReason || !announced) {
      announced = true;
      const at = continuesAt != null ? `continued at iteration ${continuesAt}` : 'training restarted from iteration 0 (no iteration had completed)';
      const recovery = lostReason
        ? `GPU device lost (${lostReason}); ${report.backend === 'webgpu' ? 'recovered on a new WebGPU device' : `fell back to ${report.backend}`}, ${at} after the GPU was lost`
        : undefined;
      // A fault of WebGPU itself, or a lost device with no new one: the panel, the badge and the verdict say why.
      const why = fallback ?? (lostReason && report.backend !== 'webgpu' ? `the GPU device was lost (${lostReason}) and no new one was offered` : null);
      const left = why !== null && report.backend !== 'webgpu' ? { fallback: `WebGPU failed: ${why}. This panel moved to ${report.backend} and ${at}` } : {};
      const movedAt = moving && !lostReason ? { movedAt: continuesAt ?? 0 } : {};
      post({ type: 'backend', report, advantages: advantageEngineName(report.backend, method), ...(recovery ? { recovery } : {}), ...movedAt, ...left });
      lostReason = null;
      moving = false;
    }
    if (methodSpec(method).visitorCode) return customEngine(estimator, rolloutShaders(report.backend, loadedShaders));
    return createAdvantageEngine(report.backend, method, loadedShaders);
  },
});

/** Test-only fault injection (docs/page-failures.md): arms a real fault on this worker's GPU path. */
function injectFault(fault: InjectedFault): void {
  if (backend.report?.backend !== 'webgpu') {
    post({ type: 'error', generation: -1, message: `fault ${fault}: the worker is not on webgpu` });
    return;
  }
  if (fault === 'deviceLostNoNewDevice') {
    withholdWebGpu('no WebGPU adapter: the device was lost and none was offered again (injected fault)');
    backend.loseDevice();
  } else armGpuFault(fault);
}

/** The custom method's engine: the visitor's estimator in a sandbox worker of the page's estimator frame, its module loaded first. */
async function customEngine(estimator: EstimatorCode | null | undefined, shaders: ShaderSources | undefined): Promise<AdvantageEngine> {
  if (!estimator)
    throw new EstimatorError({
      kind: 'load',
      message: 'Your estimator has no code to run yet: press "Run this code", or write code in the editor and press Apply',
    });
  const sandbox = browserEstimatorSandbox(estimator.source, estimator.timeoutS);
  try {
    await sandbox.load();
  } catch (e) {
    sandbox.dispose();
    throw e;
  }
  return createCustomAdvantageEngine(sandbox, estimator.source, shaders);
}

/**
 * The race's SFT prior, computed once on this worker's backend (sft-prior.ts memoises it), for the page
 * to hand to every method's worker: one prior per page config, whichever worker trains which method.
 */
async function sharedPrior(config: RaceConfig, method: Method): Promise<PolicyWeights | null> {
  const { report } = await backend.ensure(config.backend, false);
  await loadShaders(report.backend);
  const prior = sftPrior(entryConfig(method, config), shaders ?? undefined); // the fused cloning's sources, on webgpu only
  return prior ? await prior : null;
}

scope.onmessage = (event) => {
  const message = event.data;
  // The ports of a sandbox worker for the visitor's estimator, from the page's estimator frame.
  if (isSandboxPortGrant(message)) {
    receiveSandboxPorts(message);
    return;
  }
  if ((message.type === 'init' || message.type === 'prior' || message.type === 'warm') && message.wasmThreads !== undefined)
    setWasmThreads(message.wasmThreads);
  if (message.type === 'warm') {
    // A failure here is reported by the selection that `init` makes next (selections run in turn, worker-backend.ts).
    void backend.ensure(message.backend, false).catch(() => undefined);
    return;
  }
  if (message.type === 'probe') {
    void probeBackend(
      message,
      async (b) => {
        const report = await initBackend(b, { strict: true });
        await loadShaders(report.backend);
        return report;
      },
      (b) => createAdvantageEngine(b, message.method, loadedShaders),
      () => post({ type: 'probeWarm' }),
    ).then((result) => post({ type: 'probe', result }));
    return;
  }
  if (message.type === 'prior') {
    void sharedPrior(message.config, message.method).then(
      (weights) => post({ type: 'prior', weights }),
      (e: unknown) => post({ type: 'prior', weights: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return;
  }
  if (message.type === 'fault') {
    injectFault(message.fault);
    return;
  }
  if (message.type === 'loseDevice') {
    if (!backend.loseDevice()) post({ type: 'error', generation: -1, message: 'loseDevice: the worker is not on webgpu' });
    return;
  }
  if (message.type === 'move') moving = true;
  loop.command(message);
};
