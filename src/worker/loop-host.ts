/**
 * What the training loop (training-loop.ts) needs from the worker around it, and the small pieces the
 * loop shares with it: the host interface (post, prepare a backend, wait), the errors that end a step
 * without ending the run (a lost device, a GPU fault), and the settings that change without a rebuild.
 */
import { CONFIG_FIELDS, type RaceConfig, type TrainConfig } from '../config.ts';
import type { AdvantageEngine } from '../engine/advantage-engine.ts';
import { GpuKernelError } from '../gpu/kernel.ts';
import type { Method } from '../methods/registry.ts';
import type { EstimatorCode, FromWorker } from './protocol.ts';

/** How the loop asks for a backend (LoopHost.prepare). */
export interface PrepareRequest {
  /** Select the backend anew even if it is current (after a device loss). */
  force: boolean;
  /** The iteration training continues at on this backend (null: it starts over). */
  continuesAt: number | null;
  /** The visitor's estimator, for an entry that runs visitor code. */
  estimator: EstimatorCode | null;
  /**
   * Why the run left WebGPU for this backend (a kernel error, a replay that did not match): the worker
   * announces it with the backend, for the panel, the badge and the stored verdict.
   */
  fallback: string | null;
}

export interface LoopHost {
  post(message: FromWorker, transfer?: Transferable[]): void;
  /**
   * Makes sure the tfjs backend for `config.backend` is current (selecting it on first use, when the
   * choice changed, or when forced after a device loss) and returns the advantage engine of `method` on it.
   */
  prepare(config: RaceConfig, method: Method, request: PrepareRequest): Promise<AdvantageEngine>;
  /** Resolves after `ms` milliseconds; with 0, after queued messages have had a turn. */
  wait(ms: number): Promise<void>;
}

/** Thrown into a running step when the GPU device is lost. */
export class DeviceLostError extends Error {
  override name = 'DeviceLostError';
}

/** Steps that a device loss can interrupt: a lost device may leave their promises pending forever. */
export class StepWatch {
  private abort: ((e: Error) => void) | null = null;

  /** `step`, unless `interrupt` rejects it first. */
  watch<T>(step: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.abort = reject;
      step.then(resolve, reject).finally(() => {
        this.abort = null;
      });
    });
  }

  /** Rejects the step being watched, if any, with `error`. */
  interrupt(error: Error): void {
    this.abort?.(error);
  }
}

/**
 * A failure of WebGPU itself rather than of the method: a WGSL kernel's error scope reported an error,
 * or the GPU rollout's replay did not match (gpu-rollout.ts reports both as GpuKernelError). The run
 * goes on on wasm from its last completed iteration instead of stopping.
 */
export function isGpuFault(e: unknown): e is GpuKernelError {
  return e instanceof GpuKernelError || (e instanceof Error && e.name === 'GpuKernelError');
}

/** Fields that may change between iterations without rebuilding the trainers. */
export const LIVE_KEYS = CONFIG_FIELDS.filter((s) => !s.restart).map((s) => s.key);

export function liveSettings(config: RaceConfig): Partial<TrainConfig> {
  return Object.fromEntries(LIVE_KEYS.map((k) => [k, (config as Partial<TrainConfig>)[k]])) as Partial<TrainConfig>;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
