/**
 * Chooses and initialises the tfjs backend: WebGPU, else wasm, else cpu, and says why it fell back.
 *
 * This module is environment-neutral. What differs between the page and Node (where `navigator.gpu`
 * comes from, where the wasm binaries live) is supplied by a `BackendHost`: `browser.ts` for the page,
 * `node-webgpu.ts` for Node (Dawn). Import `initBackend` from one of those, not from here.
 *
 * The WebGPU device is created here rather than by tfjs's own factory so that we hold the adapter's
 * name for the badge, get a clear reason when there is no adapter (tfjs's factory crashes with
 * "Cannot read properties of null"), and can re-initialise onto a fresh device after a device loss.
 */
import * as tf from '@tensorflow/tfjs-core';
import { requestTrainingAdapter } from './adapter-request.ts';
import { loadWebGpuModule } from './webgpu-module.ts';

import { BACKEND_CHOICES, BACKEND_NAMES, type BackendChoice, type BackendName } from './names.ts';
import { adapterDisplayName, isSoftwareAdapter } from './adapter-info.ts';

export { BACKEND_CHOICES, BACKEND_NAMES, type BackendChoice, type BackendName } from './names.ts';
export { adapterDisplayName, isSoftwareAdapter } from './adapter-info.ts';

/** What `initBackend` ended up with; plain data, safe to show or serialise. */
export interface BackendReport {
  backend: BackendName;
  /** Set when backend is 'webgpu': the adapter's description, or vendor and architecture. */
  adapterName?: string;
  /** Set when backend is 'webgpu' on a software adapter (a declared fallback adapter, SwiftShader, llvmpipe). */
  software?: boolean;
  /**
   * Set when the backend is not the one asked for (or not webgpu under 'auto'), or runs reduced (wasm on
   * one thread where threads were wanted, see wasm-threads.ts): why.
   */
  fallbackReason?: string;
}

export interface BackendOptions {
  /** Throw `BackendUnavailableError` instead of falling back when the chosen backend fails. */
  strict?: boolean;
  /** How long a wasm start may take before it counts as stalled (default WASM_START_BOUND_MS). */
  wasmStartBoundMs?: number;
}

/** The environment-specific part of backend selection. */
export interface BackendHost {
  /** The WebGPU entry point, or a sentence saying why there is none. */
  gpu(): GPU | string;
  /**
   * tfjs's wasm backend module. The page's worker imports it statically, so that a wasm start fetches no
   * further script once the worker's own has loaded; Node imports it when it is first tried.
   */
  wasmModule(): Promise<typeof import('@tensorflow/tfjs-backend-wasm')>;
  /**
   * Points the wasm backend at its binaries and sets its threads before it initialises (no-op where it
   * finds them itself). Returns why threads that were wanted are not used, if so.
   */
  configureWasm(wasm: typeof import('@tensorflow/tfjs-backend-wasm')): string | undefined;
  /**
   * After a threaded wasm start that did not finish in time: switches to the single-threaded build for
   * the next start. False when the build was not threaded (there is nothing else to try).
   */
  dropWasmThreads?(): boolean;
}

/**
 * How long a wasm start may take before it counts as stalled. A healthy start (fetch, compile, and for
 * the threaded build its helper workers) takes 0.5–6 s on a busy 2-core machine; a stalled one never
 * ends, and without a bound the page would wait forever.
 */
export const WASM_START_BOUND_MS = 20_000;

export class BackendUnavailableError extends Error {
  constructor(
    readonly backend: BackendName,
    readonly reason: string,
  ) {
    super(`backend '${backend}' unavailable: ${reason}`);
    this.name = 'BackendUnavailableError';
  }
}

export function isBackendChoice(s: string): s is BackendChoice {
  return (BACKEND_CHOICES as readonly string[]).includes(s);
}

type Attempt = { ok: true; adapterName?: string; software?: boolean; note?: string } | { ok: false; reason: string };

/** The order tried for each choice: the choice itself, then everything after it. */
function chain(choice: BackendChoice): readonly BackendName[] {
  return choice === 'auto' ? BACKEND_NAMES : BACKEND_NAMES.slice(BACKEND_NAMES.indexOf(choice));
}

/**
 * Initialises the first backend of `choice`'s chain that works and makes it tfjs's current backend.
 * Calling it again re-initialises (e.g. onto a new GPUDevice after the old one was lost).
 */
export async function selectBackend(choice: BackendChoice, host: BackendHost, options: BackendOptions = {}): Promise<BackendReport> {
  const reasons: string[] = [];
  for (const name of chain(choice)) {
    const attempt = await tryBackend(name, host, options.wasmStartBoundMs ?? WASM_START_BOUND_MS);
    if (attempt.ok) {
      const report: BackendReport = { backend: name };
      if (attempt.adapterName !== undefined) report.adapterName = attempt.adapterName;
      if (attempt.software) report.software = true;
      if (attempt.note !== undefined) reasons.push(attempt.note);
      if (reasons.length > 0) report.fallbackReason = reasons.join('; ');
      return report;
    }
    if (options.strict) throw new BackendUnavailableError(name, attempt.reason);
    reasons.push(`${name}: ${attempt.reason}`);
  }
  throw new Error(`no tfjs backend could be initialised (${reasons.join('; ')})`);
}

function tryBackend(name: BackendName, host: BackendHost, wasmStartBoundMs: number): Promise<Attempt> {
  switch (name) {
    case 'webgpu':
      return tryWebGpu(host);
    case 'wasm':
      return tryWasm(host, wasmStartBoundMs);
    case 'cpu':
      return tryCpu();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Same limits and features that tfjs's own webgpu factory asks for (tfjs-backend-webgpu 4.22). */
function deviceDescriptor(adapter: GPUAdapter): GPUDeviceDescriptor {
  const requiredFeatures: GPUFeatureName[] = [];
  if (adapter.features.has('timestamp-query')) requiredFeatures.push('timestamp-query');
  if (adapter.features.has('bgra8unorm-storage')) requiredFeatures.push('bgra8unorm-storage');
  const l = adapter.limits;
  return {
    requiredFeatures,
    requiredLimits: {
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
      maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      // tfjs's AddN (used for the gradient norm over the policy's 8 variables) binds up to 8 inputs plus
      // its output; the default of 8 storage buffers per stage makes that pipeline invalid.
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    },
  };
}

async function tryWebGpu(host: BackendHost): Promise<Attempt> {
  const gpu = host.gpu();
  if (typeof gpu === 'string') return { ok: false, reason: gpu };
  // Imported here, not at the top, so cpu/wasm users never load it and, in Node, so that it is
  // evaluated after the host has installed navigator.gpu and the GPU* globals. It also registers the
  // WEBGPU_* flags read below.
  const { WebGPUBackend } = await loadWebGpuModule();
  let adapter: GPUAdapter | null;
  try {
    adapter = await requestTrainingAdapter(gpu);
  } catch (e) {
    return { ok: false, reason: `requestAdapter failed: ${errorText(e)}` };
  }
  if (!adapter) return { ok: false, reason: 'no WebGPU adapter (requestAdapter returned null)' };
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice(deviceDescriptor(adapter));
  } catch (e) {
    return { ok: false, reason: `requestDevice failed: ${errorText(e)}` };
  }
  const info = adapter.info;
  // Replace whatever factory is registered (tfjs's own, or ours from an earlier call) with one
  // bound to this device. Kernels stay registered: removeBackend only drops the factory/instance.
  if (tf.findBackendFactory('webgpu') != null) tf.removeBackend('webgpu');
  tf.registerBackend('webgpu', () => new WebGPUBackend(device, info), 3);
  let ok: boolean;
  try {
    ok = await tf.setBackend('webgpu');
  } catch (e) {
    device.destroy();
    return { ok: false, reason: `tfjs webgpu init failed: ${errorText(e)}` };
  }
  if (!ok) {
    device.destroy();
    return { ok: false, reason: 'tfjs webgpu init failed (see console)' };
  }
  return { ok: true, adapterName: adapterDisplayName(info), ...(isSoftwareAdapter(info) ? { software: true } : {}) };
}

let wasmConfigured = false;
/** The host's note on wasm threads, kept for every later selection in this realm. */
let wasmThreadsNote: string | undefined;

/** `promise`'s value, or 'stalled' when it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'stalled'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<'stalled'>((resolve) => {
    timer = setTimeout(() => resolve('stalled'), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

async function tryWasm(host: BackendHost, boundMs: number): Promise<Attempt> {
  try {
    const wasm = await host.wasmModule();
    // setWasmPaths throws once the backend has initialised, so configure exactly once.
    if (!wasmConfigured) {
      wasmThreadsNote = host.configureWasm(wasm);
      wasmConfigured = true;
    }
    let started = await within(tf.setBackend('wasm'), boundMs);
    if (started === 'stalled' && host.dropWasmThreads?.()) {
      // The stalled start stays pending inside tfjs: a fresh registration of the same factory makes it
      // obsolete (removeBackend bumps tfjs's pending-init id) and starts the single-threaded build.
      const factory = tf.findBackendFactory('wasm');
      tf.removeBackend('wasm');
      tf.registerBackend('wasm', factory, WASM_PRIORITY);
      wasmThreadsNote = `wasm runs on one thread: its threaded start did not finish within ${boundMs / 1000} s`;
      started = await within(tf.setBackend('wasm'), boundMs);
    }
    if (started === 'stalled') return { ok: false, reason: `its start did not finish within ${boundMs / 1000} s` };
    if (started) return { ok: true, ...(wasmThreadsNote !== undefined ? { note: wasmThreadsNote } : {}) };
    return { ok: false, reason: 'tfjs wasm init failed (see console)' };
  } catch (e) {
    return { ok: false, reason: `tfjs wasm init failed: ${errorText(e)}` };
  }
}

/** tfjs-backend-wasm registers itself at this priority (base.js); a re-registration keeps it. */
const WASM_PRIORITY = 2;

async function tryCpu(): Promise<Attempt> {
  // Loaded when chosen (Node's host has it loaded already): a wasm or webgpu race never parses its ~0.2 MB.
  await import('@tensorflow/tfjs-backend-cpu');
  if (await tf.setBackend('cpu')) return { ok: true };
  return { ok: false, reason: 'tfjs cpu init failed' };
}
