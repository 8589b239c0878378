/**
 * A reactive controller that decides `backend=auto` without holding the race back. It says which backend
 * the race starts on (the winner remembered for this adapter, build and settings, else wasm at once), and
 * measures in the background, when asked, whether WebGPU beats wasm here; the training controller then
 * moves the race at an iteration boundary (src/page/backend-switch.ts).
 *
 * The measurement times wasm, then WebGPU with a deadline (backend-probe.ts), each in a throw-away
 * worker that is terminated when it answers, overruns or the host disconnects. One after the other, not
 * at once: a software adapter runs on the same cores and would slow wasm's probe many times over. The
 * outcome is remembered in localStorage (src/page/backend-verdict.ts; in memory where storage is
 * blocked), so the next visit, or the next reset at the same shapes, does not probe again.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { adapterDisplayName, isSoftwareAdapter } from '../../backend/select.ts';
import type { RaceConfig } from '../../config.ts';
import type { Method } from '../../methods/registry.ts';
import { chooseBackend, webgpuProbeDeadlineMs, type ProbeOutcome } from '../../page/backend-choice.ts';
import { adapterIdentity, readVerdict, verdictKey, writeVerdict, type VerdictStorage } from '../../page/backend-verdict.ts';
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
  async begin(config: RaceConfig): Promise<ProbeStart | null> {
    this.forget();
    const token = this.token;
    const adapter = await requestAdapter();
    if (token !== this.token || !adapter) return null;
    this.key = verdictKey(adapterIdentity(adapter.info), this.build, settingsKey(config));
    const stored = readVerdict(this.storage, this.key);
    if (stored) {
      this.outcome = stored;
      this.remembered = true;
      return { backend: stored.chosen, remembered: stored };
    }
    return { backend: 'wasm', remembered: null };
  }

  /** Measures wasm against WebGPU at `config`, remembers the outcome and returns it (null when superseded). */
  async measure(config: RaceConfig, method: Method): Promise<ProbeOutcome | null> {
    const token = this.token;
    const key = this.key;
    this.probing = true;
    this.host.requestUpdate();
    const outcome = await this.run(config, method, token);
    if (token !== this.token) return null;
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
  async webgpuFailed(config: RaceConfig, reason: string): Promise<void> {
    const adapter = this.key === null ? await requestAdapter() : null;
    const key = this.key ?? (adapter ? verdictKey(adapterIdentity(adapter.info), this.build, settingsKey(config)) : null);
    const base = this.outcome ?? { wasmMs: null, webgpuMs: null, software: adapter ? isSoftwareAdapter(adapter.info) : false };
    const outcome: ProbeOutcome = { ...base, chosen: 'wasm', reason: `wasm: WebGPU failed while training (${reason})` };
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

  private async run(config: RaceConfig, method: Method, token: number): Promise<ProbeOutcome> {
    const scale = (globalThis as ProbeHook).__beaconProbeScale ?? {};
    const timed = (backend: 'webgpu' | 'wasm', deadlineMs: number): Promise<ProbeTiming | null> => {
      if (token !== this.token) return Promise.resolve(null); // superseded: start no worker
      let timer: ReturnType<typeof setTimeout>;
      let finish!: (t: ProbeTiming | null) => void;
      const done = new Promise<ProbeTiming | null>((resolve) => (finish = resolve));
      const worker = new TrainingWorkerClient(
        (m) => {
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
        `probe-${backend}`,
      );
      this.workers.push(worker);
      timer = setTimeout(() => {
        worker.terminate();
        finish(null);
      }, deadlineMs);
      worker.send({ type: 'probe', config, method, backend });
      return done;
    };
    const wasm = (await timed('wasm', 120_000)) ?? { backend: 'wasm' as const, ms: null, error: 'timed out' };
    const deadline = webgpuProbeDeadlineMs(wasm.ms);
    const webgpu = await timed('webgpu', deadline);
    this.workers = [];
    if (webgpu === null) {
      const adapter = await requestAdapter();
      const info = adapter ? { adapterName: adapterDisplayName(adapter.info), software: isSoftwareAdapter(adapter.info) } : {};
      return chooseBackend(wasm, { stoppedAfterMs: deadline, ...info });
    }
    return chooseBackend(wasm, webgpu);
  }
}

/** The settings that set the probe's cost (its network and batch shapes): a verdict holds for these. */
export function settingsKey(config: RaceConfig): string {
  return JSON.stringify([config.env, config.hiddenSize, config.tasksPerIteration, config.groupSize]);
}

/** This build's identity: the name of the script this module was bundled into (content-hashed in a build). */
function buildId(): string {
  return new URL(import.meta.url).pathname.split('/').pop() ?? '';
}

/** localStorage, or null where the page may not use it (a sandboxed frame, storage disabled). */
function pageStorage(): VerdictStorage | null {
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

/** The browser's WebGPU adapter, or null where there is none. */
async function requestAdapter(): Promise<GPUAdapter | null> {
  try {
    return (await navigator.gpu?.requestAdapter()) ?? null;
  } catch {
    return null;
  }
}
