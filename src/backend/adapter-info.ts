/**
 * What the page and the backends say about a WebGPU adapter, from its GPUAdapterInfo alone: no tfjs, so
 * the page's own script (the backend probe's verdict, keyed by the adapter) loads none of it; select.ts
 * re-exports both for the backends.
 */
/**
 * A software adapter runs WebGPU on the CPU: usually much slower than wasm. Chromium declares a fallback
 * adapter in `isFallbackAdapter` (newer) but its SwiftShader adapter is not always declared, so the name
 * is checked too.
 */
export function isSoftwareAdapter(info: GPUAdapterInfo | undefined): boolean {
  if (!info) return false;
  if ((info as GPUAdapterInfo & { isFallbackAdapter?: boolean }).isFallbackAdapter === true) return true;
  return /swiftshader|llvmpipe|lavapipe|software|microsoft basic render/i.test([info.vendor, info.architecture, info.device, info.description].join(' '));
}

/** A human-readable adapter name: Chrome often leaves `description` empty, Dawn in Node fills it. */
export function adapterDisplayName(info: GPUAdapterInfo | undefined): string {
  if (!info) return 'unknown adapter';
  if (info.description) return info.description;
  const parts = [info.vendor, info.architecture, info.device].filter((s) => s && s.length > 0);
  return parts.length > 0 ? parts.join(' ') : 'unknown adapter';
}
