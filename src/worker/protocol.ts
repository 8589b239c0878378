/**
 * The typed messages between the page and a training worker (one per raced method).
 *
 * The page sends commands; the worker answers with what happened. Every answer about training carries
 * the `generation` it belongs to (it grows with each reset), so the page drops answers that arrive after
 * a reset from the trainers it replaced. Batch snapshots travel as transferable typed arrays.
 */
import type { Method } from '../methods/registry.ts';
import type { RaceEntryName } from '../race/entries.ts';
import type { BackendReport } from '../backend/select.ts';
import type { RaceConfig, TrainConfig } from '../config.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import type { Speed } from '../race/speed.ts';
import type { IterationRecord } from '../trainer/iteration-record.ts';
import type { BatchSnapshot } from './batch-snapshot.ts';
import type { ProbeTiming } from './backend-probe.ts';

/*
 * Seeds (page setting `seeds`): `init` and `reset` may carry `extraSeeds`, one entry per seed after
 * `config.seed` (config.seed + 1, + 2, …) with that seed's SFT prior (null: its trainer computes its own);
 * the worker then trains every seed in lock-step (seed-runs.ts). Each record says which seed it is of.
 */
export type ToWorker =
  /**
   * First message: select the backend, build the trainer of race entry `method` (a registry method or a
   * named variant of one, src/race/entries.ts) from the page config (starting from `prior`, the SFT
   * prior's weights shared by every entry of the race), run if `running`.
   */
  | {
      type: 'init';
      config: RaceConfig;
      method: RaceEntryName;
      running: boolean;
      speed: Speed;
      prior?: PolicyWeights | null;
      extraSeeds?: (PolicyWeights | null)[];
      wasmThreads?: number;
      checkpoint?: ArrayBuffer | null;
      estimator?: EstimatorCode | null;
    }
  | { type: 'pause' }
  | { type: 'resume' }
  /** One iteration, then pause. */
  | { type: 'step' }
  /**
   * Rebuild the trainer from `config` (re-selecting the backend if its choice changed). With
   * `checkpoint` (as with `init`'s): continue the saved run in those bytes (panel-state.ts: one
   * checkpoint, or one per seed).
   */
  | {
      type: 'reset';
      config: RaceConfig;
      running: boolean;
      prior?: PolicyWeights | null;
      extraSeeds?: (PolicyWeights | null)[];
      checkpoint?: ArrayBuffer | null;
      estimator?: EstimatorCode | null;
    }
  /** Compute (or recall) the SFT prior of `method` at `config` on this worker's backend; answered by `prior`. */
  | { type: 'prior'; config: RaceConfig; method: Method; wasmThreads?: number }
  /** Settings that take effect from the next iteration (only fields with `restart: false`). */
  | { type: 'settings'; changes: Partial<TrainConfig> }
  | { type: 'speed'; speed: Speed }
  /** Destroys the GPU device, as a driver crash would: exercises the recovery path. */
  | { type: 'loseDevice' }
  /**
   * Test-only fault injection (docs/page-failures.md), never sent by the page's own controls: arms a
   * real fault on this worker's GPU path (gpu/fault-injection.ts): `kernel`, a validation error in the
   * next WGSL kernel's error scope; `replay`, a corrupted action in the next GPU rollout's replay;
   * `logProb`, a corrupted log-probability in the next GPU rollout's check against the policy;
   * `deviceLostNoNewDevice`, the device destroyed and no adapter offered for a new one.
   */
  | { type: 'fault'; fault: InjectedFault }
  /**
   * Move the run to `backend` at the next iteration boundary, continuing from the state of its last
   * completed iteration (as after a lost device); the `backend` answer then carries `movedAt`.
   */
  | { type: 'move'; backend: 'webgpu' | 'wasm' }
  /**
   * Select `backend` now, before `init`: the workers that wait while the first computes the shared SFT
   * prior get their backend ready meanwhile, so every panel's first point comes sooner.
   */
  | { type: 'warm'; backend: TrainConfig['backend']; wasmThreads?: number }
  /**
   * A probe worker: time `backend` on a throw-away trainer running the race at `config` (backend-probe.ts),
   * from the race's prior when given, `seeds` of it side by side (absent: 1); answered by `probeWarm` after the warm-up, then `probe`.
   */
  | { type: 'probe'; config: RaceConfig; method: Method; backend: 'webgpu' | 'wasm'; prior?: PolicyWeights | null; seeds?: number };

export type InjectedFault = 'kernel' | 'replay' | 'logProb' | 'deviceLostNoNewDevice';

/**
 * The visitor's estimator for a worker whose entry runs visitor code (the custom method): its source
 * and the time limit of one call, in seconds. It runs in a worker of the page's sandboxed estimator frame
 * (src/estimator/sandbox-frame.ts), which the training worker reaches through MessagePorts.
 */
export interface EstimatorCode {
  source: string;
  timeoutS: number;
}

export interface BackendMessage {
  type: 'backend';
  report: BackendReport;
  /** Where the advantages are computed: the WGSL kernels (webgpu) or the CPU reference. */
  advantages: 'webgpu-kernels' | 'cpu';
  /** Set after a device loss: what was lost and what the worker did about it. */
  recovery?: string;
  /** Set after a `move`: the completed iteration the run continued from on this backend. */
  movedAt?: number;
  /**
   * Set when a fault of WebGPU moved the run to this backend (a kernel error, a replay that did not
   * match, a lost device with no new one): why, and where it continued. The page shows it in the
   * panel and the badge and stores a wasm verdict with it.
   */
  fallback?: string;
}

export interface RecordMessage {
  type: 'record';
  generation: number;
  /** The config seed of the run the record is of. */
  seed: number;
  record: IterationRecord;
}

export interface SnapshotMessage {
  type: 'snapshot';
  generation: number;
  snapshot: BatchSnapshot;
}

export interface StateMessage {
  type: 'state';
  generation: number;
  /** The race entry this worker trains (its panel's key). */
  method: RaceEntryName;
  /** Training continues on its own (not paused, budget not reached). */
  running: boolean;
  /** The method reached the iteration budget (or halted). */
  finished: boolean;
  /** Completed iterations. */
  iteration: number;
  /** Stopped by an error (e.g. a non-finite loss). */
  halted: boolean;
}

/** A probe worker's answer: one backend's time for a steady iteration of the race, or why it could not run. */
export interface ProbeMessage {
  type: 'probe';
  result: ProbeTiming;
}

/** A probe worker's warm-up is done (device, compilation): the timed part, and its deadline, start now. */
export interface ProbeWarmMessage {
  type: 'probeWarm';
}

export interface ErrorMessage {
  type: 'error';
  generation: number;
  /** The race entry whose trainer failed, if the error belongs to one. */
  method?: RaceEntryName;
  message: string;
}

/** The SFT prior's weights (null when `sftEpisodes` is 0), or why it could not be computed. */
export interface PriorMessage {
  type: 'prior';
  weights: PolicyWeights | null;
  error?: string;
}

/** The run's state after its latest completed iteration, as checkpoint bytes (transferred): for autosave and run files. */
export interface CheckpointMessage {
  type: 'checkpoint';
  generation: number;
  /** The panel's race entry. */
  method: RaceEntryName;
  iteration: number;
  bytes: ArrayBuffer;
}

export type FromWorker =
  | BackendMessage
  | RecordMessage
  | SnapshotMessage
  | StateMessage
  | ErrorMessage
  | ProbeMessage
  | ProbeWarmMessage
  | PriorMessage
  | CheckpointMessage;
