/**
 * The backend probe: times one backend on a throw-away trainer running the visitor's race, so that
 * `auto` picks the backend that is actually faster here for this race (a software GPU adapter such as
 * SwiftShader is far slower than wasm, and only a measurement tells a weak GPU from a strong one).
 *
 * The workload is the race's own (race/workload.ts: environment, horizon, batch, width, epochs, the
 * same tfjs flags as training), from the race's SFT prior when the page hands it over. One warm-up
 * iteration first pays for worker start, device creation, shader compilation and JIT; then
 * PROBE_TIMED_ITERATIONS steady iterations are timed and their median reported. The worker says when the
 * warm-up is done (`onWarm`), so the page's deadline covers the timed part alone. Nothing of it is kept.
 * The page runs each backend's probe in a worker of its own, so a probe that overruns can be terminated.
 *
 * With `seeds` K > 1 the probe trains K seeds side by side through SeedRuns (seed-runs.ts, the race's own
 * path: one batch on webgpu) and times an iteration of all of them, for the offer of more seeds
 * (src/page/seed-offer.ts). Every seed starts from the race's prior: the timing is of an iteration's work,
 * which does not depend on the weights' values, and K SFT priors would make the warm-up K times longer.
 */
import type { BackendName, BackendReport } from '../backend/select.ts';
import { applyTrainingFlags } from '../backend/webgpu-interop.ts';
import type { RaceConfig } from '../config.ts';
import type { AdvantageEngine } from '../engine/advantage-engine.ts';
import type { Method } from '../methods/registry.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import { raceEntry } from '../race/entries.ts';
import { PROBE_TIMED_ITERATIONS, PROBE_WARMUP_ITERATIONS } from '../race/probe-iterations.ts';
import { raceWorkload, type RaceWorkload } from '../race/workload.ts';
import { seedConfigs } from '../race/seeds.ts';
import { SeedRuns } from './seed-runs.ts';

export interface ProbeTiming {
  backend: 'webgpu' | 'wasm';
  /** Milliseconds of a steady iteration (the median of the timed ones); null when the backend could not run. */
  ms: number | null;
  /** Why the backend could not run. */
  error?: string;
  adapterName?: string;
  /** The adapter is a software rasteriser (SwiftShader, llvmpipe, or a declared fallback adapter). */
  software?: boolean;
}

/**
 * What the probe runs on `backend`: the race's workload for `method` (the same object the training
 * worker builds), with just enough iterations for the warm-up and the timed ones.
 */
export function probeWorkload(config: RaceConfig, method: Method, backend: BackendName): RaceWorkload {
  const race = raceWorkload(config, raceEntry(method), backend);
  return { ...race, config: { ...race.config, iters: PROBE_WARMUP_ITERATIONS + PROBE_TIMED_ITERATIONS } };
}

export interface ProbeRun {
  config: RaceConfig;
  method: Method;
  backend: 'webgpu' | 'wasm';
  /** The race's SFT prior at `config.seed` (absent or null: the probe trainer computes its own, in the warm-up). */
  prior?: PolicyWeights | null;
  /** Seeds trained side by side and timed together (absent: 1). */
  seeds?: number;
}

export async function probeBackend(
  { config, method, backend, prior, seeds = 1 }: ProbeRun,
  init: (backend: BackendName) => Promise<BackendReport>,
  engine: (backend: BackendName) => AdvantageEngine,
  onWarm: () => void = () => {},
  now: () => number = () => performance.now(),
): Promise<ProbeTiming> {
  let report: BackendReport;
  try {
    report = await init(backend);
  } catch (e) {
    return { backend, ms: null, error: e instanceof Error ? e.message : String(e) };
  }
  applyTrainingFlags(report.backend);
  const info = { ...(report.adapterName !== undefined ? { adapterName: report.adapterName } : {}), ...(report.software ? { software: true } : {}) };
  const configs = seedConfigs(probeWorkload(config, method, report.backend).config, seeds);
  const run = await SeedRuns.create(
    configs,
    configs.map(() => prior),
    () => Promise.resolve(engine(report.backend)),
    () => false,
  );
  if (!run) return { backend, ms: null, error: 'superseded', ...info };
  try {
    for (let i = 0; i < PROBE_WARMUP_ITERATIONS; i++) await run.step();
    onWarm();
    const times: number[] = [];
    for (let i = 0; i < PROBE_TIMED_ITERATIONS; i++) {
      const t0 = now();
      await run.step();
      times.push(now() - t0);
    }
    return { backend, ms: median(times), ...info };
  } catch (e) {
    return { backend, ms: null, error: e instanceof Error ? e.message : String(e), ...info };
  } finally {
    run.dispose();
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
