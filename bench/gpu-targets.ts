/**
 * The targets an iteration on webgpu is held to (the GPU-native iteration's "done when"), checked on
 * bench:gpu's figures: at the page defaults, few calls; at 4,096 runs against the same settings at
 * 8 × 8 runs (its twin, same horizon), calls and the host's work that do not grow with the batch and
 * few bytes over the bus. Each check says its value and whether it passes; failures are printed, not
 * hidden.
 */
import type { WebGpuCallCounts } from '../src/backend/webgpu-call-counter.ts';

/** A case's figures per steady iteration (means over the measured iterations). */
export type CaseFigures = Pick<WebGpuCallCounts, 'dispatches' | 'submits' | 'readBacks' | 'bytesReadBack' | 'bytesWritten' | 'pipelines'> & {
  /** Wall milliseconds outside GPU waits. */
  hostMs: number;
  /** Main-thread CPU milliseconds outside GPU waits, where measured. */
  hostCpuMs: number | null;
};

export interface TargetCheck {
  target: string;
  value: string;
  pass: boolean;
}

export const TARGETS = {
  defaults: { dispatches: 40, submits: 10, readBacks: 2 },
  scale: { dispatchRatio: 1.1, bytesReadBack: 128 * 1024, bytesWritten: 256 * 1024, hostRatio: 1.5 },
} as const;

const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`;

/** Mean of each figure over iterations (`hostCpuMs` null unless every iteration has it). */
export function meanFigures(iterations: readonly CaseFigures[]): CaseFigures {
  if (iterations.length === 0) throw new RangeError('meanFigures: no iterations');
  const mean = (f: (x: CaseFigures) => number) => iterations.reduce((a, x) => a + f(x), 0) / iterations.length;
  const cpu = iterations.every((x) => x.hostCpuMs !== null);
  return {
    dispatches: mean((x) => x.dispatches),
    submits: mean((x) => x.submits),
    readBacks: mean((x) => x.readBacks),
    bytesReadBack: mean((x) => x.bytesReadBack),
    bytesWritten: mean((x) => x.bytesWritten),
    pipelines: mean((x) => x.pipelines),
    hostMs: mean((x) => x.hostMs),
    hostCpuMs: cpu ? mean((x) => x.hostCpuMs as number) : null,
  };
}

/** Checks common to every case: no pipeline compiled after the first iteration. */
export function steadyChecks(c: CaseFigures): TargetCheck[] {
  return [{ target: 'pipelines created per steady iteration = 0', value: `${c.pipelines}`, pass: c.pipelines === 0 }];
}

/** The page defaults' targets: dispatches, submits and read-backs per steady iteration. */
export function defaultsChecks(c: CaseFigures): TargetCheck[] {
  const t = TARGETS.defaults;
  return [
    { target: `dispatches ≤ ${t.dispatches}`, value: `${c.dispatches}`, pass: c.dispatches <= t.dispatches },
    { target: `submits ≤ ${t.submits}`, value: `${c.submits}`, pass: c.submits <= t.submits },
    { target: `read-backs ≤ ${t.readBacks}`, value: `${c.readBacks}`, pass: c.readBacks <= t.readBacks },
  ];
}

/**
 * 4,096 runs against its 8 × 8 twin at the same horizon. "Within 10%" is read as at most 10% more
 * dispatches (fewer pass); the host's growth is the ratio of host milliseconds outside GPU waits: of
 * main-thread CPU time when both cases have it (robust to a shared machine), else of wall time.
 */
export function scaleChecks(small: CaseFigures, large: CaseFigures): TargetCheck[] {
  const t = TARGETS.scale;
  const dispatchRatio = large.dispatches / small.dispatches;
  const cpu = small.hostCpuMs !== null && large.hostCpuMs !== null;
  const [hostSmall, hostLarge] = cpu ? [small.hostCpuMs as number, large.hostCpuMs as number] : [small.hostMs, large.hostMs];
  const hostRatio = hostLarge / hostSmall;
  const wallRatio = large.hostMs / small.hostMs;
  return [
    {
      target: `dispatches within 10% of 8 × 8 (ratio ≤ ${t.dispatchRatio})`,
      value: `${large.dispatches} / ${small.dispatches} = ${dispatchRatio.toFixed(2)}×`,
      pass: dispatchRatio <= t.dispatchRatio,
    },
    { target: `bytes read back ≤ ${kib(t.bytesReadBack)}`, value: kib(large.bytesReadBack), pass: large.bytesReadBack <= t.bytesReadBack },
    { target: `bytes written by the host ≤ ${kib(t.bytesWritten)}`, value: kib(large.bytesWritten), pass: large.bytesWritten <= t.bytesWritten },
    {
      target: `host ms outside GPU waits grow ≤ ${t.hostRatio}× from 64 to 4,096 runs`,
      value:
        `${hostLarge.toFixed(0)} / ${hostSmall.toFixed(0)} ms ${cpu ? 'main-thread CPU' : 'wall'} = ${hostRatio.toFixed(2)}×` +
        (cpu ? ` (wall: ${large.hostMs.toFixed(0)} / ${small.hostMs.toFixed(0)} ms = ${wallRatio.toFixed(2)}×)` : ''),
      pass: hostRatio <= t.hostRatio,
    },
  ];
}

/** Lines of a verdict block: one per check, PASS or FAIL first. */
export function formatChecks(title: string, checks: readonly TargetCheck[]): string[] {
  return [title, ...checks.map((c) => `  ${c.pass ? 'PASS' : 'FAIL'}  ${c.target}: ${c.value}`)];
}
