/**
 * The tfjs backends by name, without tfjs: the settings table (src/config.ts) and the commands read
 * these lists without loading a tensor library; select.ts initialises the backend they name.
 */

/** The tfjs backends, fastest first: the one list every command, the page and the config read. */
export const BACKEND_NAMES = ['webgpu', 'wasm', 'cpu'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];
/** `auto`: the first backend of BACKEND_NAMES that works here. */
export const BACKEND_CHOICES = ['auto', ...BACKEND_NAMES] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];
