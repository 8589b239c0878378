/**
 * A reactive controller that decides `backend=auto` without holding the race back. It says which backend
 * the race starts on (the winner remembered for this adapter, build and settings, else wasm at once), and
 * measures in the background, when asked, whether WebGPU beats wasm here; the training controller then
 * moves the race at an iteration boundary (src/page/backend-switch.ts).
 *
 * The measurement times the race's own workload (backend-probe.ts) on wasm, then on WebGPU, each in a
 * throw-away worker that is terminated when it answers, overruns or the host disconnects: a warm-up
 * iteration under a generous deadline, then the timed iterations under a deadline of their own (for
 * WebGPU, set from wasm's figure). One after the other, not at once: a software adapter runs on the same
 * cores and would slow wasm's probe many times over. The outcome, with what was measured, is remembered
 * in localStorage (src/page/backend-verdict.ts; in memory where storage is blocked), so the next visit
 * or reset at the same shapes does not probe again, until the adapter, the browser or the build
 * changes, 30 days pass, or the visitor asks to measure again.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { requestTrainingAdapter } from '../../backend/adapter-request.ts';
import { adapterDisplayName, isSoftwareAdapter } from '../../backend/adapter-info.ts';
import type { RaceConfig } from '../../config.ts';
import type { Method } from '../../methods/registry.ts';
import {
  chooseBackend,
  measuredSentence,
  PROBE_WARMUP_DEADLINE_MS,
  webgpuProbeDeadlineMs,
  workloadWords,
  type ProbeOutcome,
  type StoppedProbe,
} from '../../page/backend-choice.ts';
import type { PolicyWeights } from '../../policy/policy.ts';
import { trainerConfig } from '../../race/workload.ts';
import { raceEntry } from '../../race/entries.ts';
import { adapterIdentity, readVerdict, verdictKey, writeVerdict, type ListedStorage, type VerdictStorage } from '../../page/backend-verdict.ts';
import type { ProbeTiming } from '../../worker/backend-probe.ts';
import { TrainingWorkerClient } from '../../worker/worker-client.ts';

/**
 * Test hook: factors applied to the probe's timings (`{ webgpu: 1000 }` makes the adapter look 1000×
 * slower), so a test can force either choice on any machine. Set before the page's scripts run.
 */
interface ProbeHook {
  __beaconProbeScale?: Partial<Record<'webgpu' | 'wasm', number>>;
}

/** Where an `auto` race starts, and the remembered outcome that decided it (null: measure now). */
export interface ProbeStart {
  backend: 'webgpu' | 'wasm';
  remembered: ProbeOutcome | null;
}

/** The timed part of a seeds probe: a few steady iterations of up to 8 seeds on a GPU that already won its probe. */
const SEED_PROBE_DEADLINE_MS = 60_000;

export class BackendProbeController implements ReactiveController {
  /** How `auto` was decided: remembered from an earlier visit, or measured now; null before either. */
  outcome: ProbeOutcome | null = null;
  /** `outcome` was read from an earlier visit on this adapter and build, not measured now. */
  remembered = false;
  /** The background measurement runs. */
  probing = false;

  private workers: TrainingWorkerClient[] = [];
  /** Bumped by every `begin` and `cancel`, so a measurement they superseded is dropped. */
  private token = 0;
  /** The verdict key of the current race (adapter, build, settings); null without an adapter. */
  private key: string | null = null;
  private readonly storage: VerdictStorage;

  constructor(
    private readonly host: ReactiveControllerHost,
    storage: VerdictStorage | null = pageStorage(),
    private readonly build: string = buildId(),
    private readonly browser: string = browserVersion(),
  ) {
    this.storage = storage ?? memoryStorage();
    host.addController(this);
  }

  hostDisconnected(): void {
    this.cancel();
  }

  /**
   * Where an `auto` race at `config` starts: the winner remembered for this adapter, else wasm at once.
   * Null where the browser has no WebGPU adapter (the worker's own `auto` then falls back and says why),
   * or when a later `begin`/`cancel` superseded this one.
   */
  async begin(config: RaceConfig, method: Method): Promise<ProbeStart | null> {
    this.forget();
    const token = this.token;
    const adapter = await (takeEarlyAdapter() ?? requestAdapter());
    if (token !== this.token || !adapter) return null;
    this.key = this.keyOf(adapter, config, method);
    const stored = readVerdict(this.storage, this.key);
    if (stored) {
      this.outcome = stored;
      this.remembered = true;
      return { backend: stored.chosen, remembered: stored };
    }
    return { backend: 'wasm', remembered: null };
  }

  /**
   * Measures wasm against WebGPU on the race at `config` (its entry `method`, from its `prior`),
   * remembers the outcome with what was measured, and returns it (null when superseded).
   */
  async measure(config: RaceConfig, method: Method, prior: PolicyWeights | null = null): Promise<ProbeOutcome | null> {
    const token = this.token;
    const key = this.key;
    this.probing = true;
    this.host.requestUpdate();
    const chosen = await this.run(config, method, prior, token);
    if (token !== this.token) return null;
    const outcome: ProbeOutcome = {
      ...chosen,
      measured: measuredSentence(chosen, workloadWords(trainerConfig(config, raceEntry(method)))),
      measuredAt: Date.now(),
    };
    this.probing = false;
    this.outcome = outcome;
    this.remembered = false;
    if (key !== null) writeVerdict(this.storage, key, outcome);
    this.host.requestUpdate();
    return outcome;
  }

  /**
   * WebGPU failed while training at `config` (a kernel error, a replay that did not match, a lost device
   * with no new one): the verdict for this adapter becomes wasm with that reason, so the next visit
   * starts on wasm and says why. Stored even when the race's backend was forced to webgpu.
   */
  async webgpuFailed(config: RaceConfig, method: Method, reason: string): Promise<void> {
    const adapter = this.key === null ? await requestAdapter() : null;
    const key = this.key ?? (adapter ? this.keyOf(adapter, config, method) : null);
    const base = this.outcome ?? { wasmMs: null, webgpuMs: null, software: adapter ? isSoftwareAdapter(adapter.info) : false };
    const outcome: ProbeOutcome = { ...base, chosen: 'wasm', reason: `wasm: WebGPU failed while training (${reason})`, measuredAt: Date.now() };
    this.outcome = outcome;
    this.remembered = false;
    if (key !== null) writeVerdict(this.storage, key, outcome);
    this.host.requestUpdate();
  }

  /** Drops the outcome (a race whose backend is forced shows none) and stops a measurement under way. */
  forget(): void {
    this.cancel();
    this.outcome = null;
    this.remembered = false;
    this.key = null;
  }

  /** Stops a measurement under way (its workers are terminated and its outcome dropped). */
  cancel(): void {
    this.token++;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.probing = false;
  }

  private keyOf(adapter: GPUAdapter, config: RaceConfig, method: Method): string {
    return verdictKey(adapterIdentity(adapter.info), this.browser, this.build, settingsKey(config, method));
  }

  /**
   * Times an iteration of `counts` seeds each (side by side, backend-probe.ts) on webgpu at `config`,
   * one probe worker after another, for the offer of more seeds (src/page/seed-offer.ts). Null for a
   * count that could not be timed; null for all when a later measurement superseded this one.
   */
  async timeSeeds(config: RaceConfig, method: Method, prior: PolicyWeights | null, counts: readonly number[]): Promise<Record<number, number | null> | null> {
    const token = this.token;
    const out: Record<number, number | null> = {};
    for (const seeds of counts) {
      const t = await this.timed(config, method, prior, token, 'webgpu', SEED_PROBE_DEADLINE_MS, seeds);
      if (token !== this.token) return null;
      out[seeds] = t && !('stoppedAfterMs' in t) ? t.ms : null;
    }
    this.workers = [];
    return out;
  }

  /** One backend's probe: its timing, or where it was stopped (the warm-up's deadline, then the timed part's). */
  private timed(
    config: RaceConfig,
    method: Method,
    prior: PolicyWeights | null,
    token: number,
    backend: 'webgpu' | 'wasm',
    timedDeadlineMs: number,
    seeds = 1,
  ): Promise<ProbeTiming | StoppedProbe | null> {
    const scale = (globalThis as ProbeHook).__beaconProbeScale ?? {};
    if (token !== this.token) return Promise.resolve(null); // superseded: start no worker
    let timer: ReturnType<typeof setTimeout>;
    let finish!: (t: ProbeTiming | StoppedProbe | null) => void;
    const done = new Promise<ProbeTiming | StoppedProbe | null>((resolve) => (finish = resolve));
    const stopAfter = (ms: number, stoppedIn: StoppedProbe['stoppedIn']) =>
      setTimeout(() => {
        worker.terminate();
        finish({ stoppedAfterMs: ms, stoppedIn });
      }, ms);
    const worker = new TrainingWorkerClient(
      (m) => {
        if (m.type === 'probeWarm') {
          // The warm-up (worker, device, compilation) is done: the deadline now covers the timed part alone.
          clearTimeout(timer);
          timer = stopAfter(timedDeadlineMs, 'timed');
          return;
        }
        if (m.type !== 'probe') return;
        clearTimeout(timer);
        worker.terminate();
        const factor = scale[backend] ?? 1;
        finish(m.result.ms === null ? m.result : { ...m.result, ms: m.result.ms * factor });
      },
      (message) => {
        clearTimeout(timer);
        worker.terminate();
        finish({ backend, ms: null, error: message });
      },
      `probe-${backend}${seeds > 1 ? `-${seeds}-seeds` : ''}`,
    );
    this.workers.push(worker);
    timer = stopAfter(PROBE_WARMUP_DEADLINE_MS, 'warm-up');
    worker.send({ type: 'probe', config, method, backend, prior, ...(seeds > 1 ? { seeds } : {}) });
    return done;
  }

  private async run(config: RaceConfig, method: Method, prior: PolicyWeights | null, token: number): Promise<Omit<ProbeOutcome, 'measured' | 'measuredAt'>> {
    const timed = (backend: 'webgpu' | 'wasm', timedDeadlineMs: number) => this.timed(config, method, prior, token, backend, timedDeadlineMs);
    const wasmRun = await timed('wasm', 120_000);
    const wasm: ProbeTiming =
      wasmRun && !('stoppedAfterMs' in wasmRun)
        ? wasmRun
        : { backend: 'wasm', ms: null, error: wasmRun ? `its ${wasmRun.stoppedIn} overran ${wasmRun.stoppedAfterMs / 1000} s` : 'stopped' };
    const webgpu = await timed('webgpu', webgpuProbeDeadlineMs(wasm.ms));
    this.workers = [];
    if (webgpu === null || 'stoppedAfterMs' in webgpu) {
      const adapter = await requestAdapter();
      const info = adapter ? { adapterName: adapterDisplayName(adapter.info), software: isSoftwareAdapter(adapter.info) } : {};
      return chooseBackend(wasm, { ...(webgpu ?? { stoppedAfterMs: 0, stoppedIn: 'warm-up' as const }), ...info });
    }
    return chooseBackend(wasm, webgpu);
  }
}

/**
 * The settings that set the cost of the race's iteration (the probe's workload, race/workload.ts): the
 * method timed, environment, horizon, width, batch, epochs and minibatches. A verdict holds for these.
 */
export function settingsKey(config: RaceConfig, method: Method): string {
  const c = trainerConfig(config, raceEntry(method));
  return JSON.stringify([method, c.env, c.horizon, c.hiddenSize, c.tasksPerIteration, c.groupSize, c.epochs, c.minibatches]);
}

/** The browser and its version (a verdict is measured again when it changes). */
function browserVersion(): string {
  return globalThis.navigator?.userAgent ?? '';
}

/** This build's identity: the name of the script this module was bundled into (content-hashed in a build). */
function buildId(): string {
  return new URL(import.meta.url).pathname.split('/').pop() ?? '';
}

/** localStorage, or null where the page may not use it (a sandboxed frame, storage disabled). */
export function pageStorage(): (VerdictStorage & ListedStorage) | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Verdicts for this page's lifetime only: where localStorage is blocked, resets still skip the probe. */
function memoryStorage(): VerdictStorage {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

/** The adapter request started before the page built itself (requestAdapterEarly), until the first `begin` takes it. */
let earlyAdapter: Promise<GPUAdapter | null> | null = null;

/**
 * Starts the page's adapter request now (early-workers.ts, under `auto`): the GPU process answers it while
 * the page builds itself, so `auto`'s verdict, and with it the race's start, does not wait for it after.
 */
export function requestAdapterEarly(): void {
  earlyAdapter ??= requestAdapter();
}

function takeEarlyAdapter(): Promise<GPUAdapter | null> | null {
  const early = earlyAdapter;
  earlyAdapter = null;
  return early;
}

/** The browser's WebGPU adapter, or null where there is none. */
async function requestAdapter(): Promise<GPUAdapter | null> {
  try {
    return navigator.gpu ? await requestTrainingAdapter(navigator.gpu) : null;
  } catch {
    return null;
  }
}
