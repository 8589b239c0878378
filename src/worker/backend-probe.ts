/**
 * The backend probe: times one backend on a throw-away trainer at the page's current settings, so that
 * `auto` can pick the backend that is actually faster here (a software GPU adapter such as SwiftShader
 * is far slower than wasm, and only a measurement tells a weak GPU from a strong one).
 *
 * The probe trainer has the page's network width and batch shape (they set the cost of every op), on the
 * shortest horizon with one epoch of one minibatch: a few forward passes and one update. One warm-up
 * step pays for shader compilation and JIT; the second step is the one timed. Nothing of it is kept.
 * The page runs each backend's probe in a worker of its own, so a probe that overruns can be terminated.
 */
import type { BackendName, BackendReport } from '../backend/select.ts';
import type { RaceConfig, TrainConfig } from '../config.ts';
import type { Method } from '../methods/registry.ts';
import { entryConfig } from '../race/entries.ts';
import type { AdvantageEngine } from '../engine/advantage-engine.ts';
import { TrainingRun } from '../trainer/run.ts';

export interface ProbeTiming {
  backend: 'webgpu' | 'wasm';
  /** Milliseconds of the timed (second) step; null when the backend could not run. */
  ms: number | null;
  /** Why the backend could not run. */
  error?: string;
  adapterName?: string;
  /** The adapter is a software rasteriser (SwiftShader, llvmpipe, or a declared fallback adapter). */
  software?: boolean;
}

/** The probe's settings: the page's shapes, the least work that still runs every kind of op. */
export function probeConfig(config: RaceConfig, method: Method): TrainConfig {
  return { ...entryConfig(method, config), horizon: 'tiny', epochs: 1, minibatches: 1, iters: 2 };
}

export async function probeBackend(
  config: RaceConfig,
  method: Method,
  backend: 'webgpu' | 'wasm',
  init: (backend: BackendName) => Promise<BackendReport>,
  engine: (backend: BackendName) => AdvantageEngine,
  now: () => number = () => performance.now(),
): Promise<ProbeTiming> {
  let report: BackendReport;
  try {
    report = await init(backend);
  } catch (e) {
    return { backend, ms: null, error: e instanceof Error ? e.message : String(e) };
  }
  const info = { ...(report.adapterName !== undefined ? { adapterName: report.adapterName } : {}), ...(report.software ? { software: true } : {}) };
  const run = new TrainingRun(probeConfig(config, method), engine(report.backend));
  try {
    await run.step();
    const t0 = now();
    await run.step();
    return { backend, ms: now() - t0, ...info };
  } catch (e) {
    return { backend, ms: null, error: e instanceof Error ? e.message : String(e), ...info };
  } finally {
    run.dispose();
  }
}
