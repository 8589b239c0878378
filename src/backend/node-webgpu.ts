/**
 * Node-only backend host: WebGPU through Dawn (the `webgpu` npm package), wasm from node_modules.
 *
 * Never import this from page code: it loads a native addon. Page code uses `browser.ts`.
 *
 * Where no GPU driver answers (CI, these 2-core machines) Dawn runs on Chromium's SwiftShader Vulkan
 * driver. Two things must be in place before the first adapter request:
 * - `VK_ICD_FILENAMES` pointing at SwiftShader's ICD file. The Vulkan loader reads the real process
 *   environment, which `process.env` assignments reach only in the main thread: in a worker thread set
 *   it before the process starts (vitest.config.ts does that for tests, which run in forks).
 * - a Vulkan loader, `libvulkan.so.1`. Debian's Chromium ships one beside SwiftShader but the system may
 *   have none (package libvulkan1). Dawn dlopens it by name, and glibc resolves a name to a library
 *   already loaded with that soname, so we preload Chromium's copy by absolute path. `process.dlopen`
 *   then complains that it is no Node addon; RTLD_NODELETE keeps it loaded regardless.
 */
import { existsSync, realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
// In Node the cpu backend is registered at once, as tfjs's default (tests and commands run tensors on it
// without selecting it); the page's host (browser.ts) loads it only when it is chosen.
import '@tensorflow/tfjs-backend-cpu';
import { paceGpuWaits } from './node-gpu-wait-pacer.ts';
import { selectBackend, type BackendChoice, type BackendHost, type BackendOptions, type BackendReport } from './select.ts';

/** glibc's RTLD_NODELETE; Node's os.constants.dlopen does not list it. */
const RTLD_NODELETE = 0x1000;

/** Directories where a Chromium install keeps SwiftShader (`vk_swiftshader_icd.json`). */
function chromiumLibDirs(): string[] {
  const dirs: string[] = [];
  const override = process.env.CHROMIUM_PATH;
  if (override && existsSync(override)) dirs.push(dirname(realpathSync(override)));
  dirs.push('/usr/lib/chromium', '/usr/lib/chromium-browser');
  return dirs;
}

/** Path of SwiftShader's Vulkan ICD file from the installed Chromium, if there is one. */
function findSwiftShaderIcd(): string | undefined {
  for (const dir of chromiumLibDirs()) {
    const icd = join(dir, 'vk_swiftshader_icd.json');
    if (existsSync(icd)) return icd;
  }
  return undefined;
}

/** Tries to dlopen a library; true if it is (now) loaded. Only the "not an addon" error means success. */
function dlopenLibrary(nameOrPath: string): boolean {
  const flags = constants.dlopen.RTLD_NOW | constants.dlopen.RTLD_GLOBAL | RTLD_NODELETE;
  try {
    process.dlopen({ exports: {} }, nameOrPath, flags);
    return true;
  } catch (e) {
    return e instanceof Error && e.message.includes('did not self-register');
  }
}

/** Makes sure a Vulkan loader can be found by Dawn; prefers the system's, else Chromium's copy. */
function ensureVulkanLoader(icdPath: string | undefined): void {
  if (process.platform !== 'linux') return;
  if (dlopenLibrary('libvulkan.so.1')) return;
  const candidates = [...(icdPath ? [join(dirname(icdPath), 'libvulkan.so.1')] : []), ...chromiumLibDirs().map((d) => join(d, 'libvulkan.so.1'))];
  for (const lib of candidates) if (existsSync(lib) && dlopenLibrary(lib)) return;
}

let gpuEntry: GPU | undefined;
let gpuProblem: string | undefined;

async function hasAdapter(gpu: GPU): Promise<boolean> {
  return (await gpu.requestAdapter()) !== null;
}

/**
 * Installs Dawn as `navigator.gpu` (and the GPU* globals such as GPUBufferUsage) and returns it, or
 * a sentence saying what to install. Idempotent. Prefers a real driver; falls back to SwiftShader.
 */
async function installNodeWebGpu(): Promise<GPU | string> {
  if (gpuEntry) return gpuEntry;
  if (gpuProblem) return gpuProblem;
  // Loaded on demand so that cpu/wasm runs never load the native addon.
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  paceGpuWaits(globals);
  const swiftShader = findSwiftShaderIcd();
  let gpu: GPU | undefined;
  if (process.env.VK_ICD_FILENAMES) {
    ensureVulkanLoader(process.env.VK_ICD_FILENAMES);
    gpu = create([]);
  } else {
    // Try the machine's own driver first, but only if it has a Vulkan loader at all (otherwise
    // Dawn just prints a warning and finds nothing).
    const systemLoader = process.platform !== 'linux' || dlopenLibrary('libvulkan.so.1');
    if (systemLoader) {
      const candidate = create([]);
      if (await hasAdapter(candidate)) gpu = candidate;
    }
    if (!gpu && swiftShader) {
      process.env.VK_ICD_FILENAMES = swiftShader;
      ensureVulkanLoader(swiftShader);
      gpu = create([]);
    }
  }
  if (!gpu || !(await hasAdapter(gpu))) {
    gpuProblem =
      'no WebGPU adapter in Node (Dawn): install Chromium for its SwiftShader driver ' +
      '(sudo apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium whose directory holds ' +
      'vk_swiftshader_icd.json';
    return gpuProblem;
  }
  const nav = (globalThis as { navigator?: object }).navigator;
  if (nav === undefined) {
    Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
  } else {
    Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true, writable: true });
  }
  gpuEntry = gpu;
  return gpu;
}

/**
 * Removes `navigator.gpu` again. Dawn keeps the process alive while its GPU object is referenced, so a
 * CLI that used webgpu calls this (after disposing tensors and `tf.removeBackend('webgpu')`) to exit.
 */
export function uninstallNodeWebGpu(): void {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav && nav.gpu === gpuEntry) delete nav.gpu;
  gpuEntry = undefined;
}

/**
 * tfjs's cpu backend greets Node users on its first tensor with "Hi, looks like you are running
 * TensorFlow.js in Node.js ... install tfjs-node". We use it on purpose (tfjs-node is not wanted), so
 * mark the greeting as done. `firstUse` is a private field of MathBackendCPU (tfjs 4.22); if it
 * disappears the banner merely comes back.
 */
function silenceCpuBackendBanner(): void {
  const cpu = tf.findBackend('cpu') as unknown as { firstUse?: boolean } | null;
  if (cpu && typeof cpu.firstUse === 'boolean') cpu.firstUse = false;
}

/** Selects and initialises a tfjs backend in Node (see select.ts for the choice semantics). */
export async function initBackend(choice: BackendChoice, options: BackendOptions = {}): Promise<BackendReport> {
  const gpu = choice === 'auto' || choice === 'webgpu' ? await installNodeWebGpu() : 'not requested';
  const host: BackendHost = {
    gpu: () => gpu,
    // The Node build of tfjs-backend-wasm finds its .wasm files beside itself in node_modules.
    wasmModule: () => import('@tensorflow/tfjs-backend-wasm'),
    configureWasm: () => undefined,
  };
  silenceCpuBackendBanner();
  return selectBackend(choice, host, options);
}
