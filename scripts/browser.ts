/**
 * Launches the system Chromium for end-to-end tests, with or without WebGPU.
 *
 * Playwright's own browser downloads are not used (they fail on these machines): we drive the
 * distribution's Chromium through playwright-core. `launch` gives a fresh profile every time.
 * A missing Chromium fails the test with the command that installs it; it never skips.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags that keep headless Chromium quiet and offline. */
const QUIET_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Exposes a WebGPU adapter in headless Chromium. Without it, on a machine without a blessed GPU (e.g.
 * SwiftShader only), `navigator.gpu` exists but `requestAdapter()` returns null: that is how the
 * tests run the page "without WebGPU". (`--disable-features=WebGPU`, `--disable-blink-features=WebGPU`
 * and `--disable-webgpu` do not remove the adapter or the API in Chromium 156.)
 */
export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu'];

/**
 * More WebGPU flags from $BEACON_CHROMIUM_FLAGS (space-separated): bench:device passes Vulkan flags so
 * that headless Chromium uses a real GPU where there is one.
 */
const extraWebGpuFlags = (): string[] => (process.env.BEACON_CHROMIUM_FLAGS ?? '').split(/\s+/).filter(Boolean);

/**
 * A host name that resolves to 127.0.0.1 inside the launched Chromium only. Unlike localhost it is
 * not a secure context, so a page served under it has no `navigator.gpu` (in window or workers): the
 * way to test the "no WebGPU API" fallback. Servers from server.ts accept it.
 */
export const INSECURE_HOST = 'beacon-live.test';

/** The Chromium binary: $CHROMIUM_PATH, else /usr/bin/chromium. Throws an install hint if missing. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}: install it (Debian/Ubuntu: sudo apt-get install -y chromium) ` + 'or set CHROMIUM_PATH to a Chromium or Chrome binary',
    );
  }
  return path;
}

export interface LaunchOptions {
  /** Expose a WebGPU adapter (default true). */
  webgpu?: boolean;
}

/** Starts headless Chromium; close the returned browser in `afterAll`. */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const webgpu = options.webgpu ?? true;
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...QUIET_FLAGS, `--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`, ...(webgpu ? [...WEBGPU_FLAGS, ...extraWebGpuFlags()] : [])],
  });
}
