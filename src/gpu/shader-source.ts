/**
 * Names of the WGSL kernels and the shape of their sources.
 *
 * The `.wgsl` files in shaders/ are the single source of each kernel. How their text is obtained
 * differs by host, so it is injected: `shaders-vite.ts` imports them with Vite's `?raw` (the page,
 * and Vitest, which transforms through Vite); `shaders-node.ts` reads them from disk (tsx CLIs and
 * benchmarks, which have no Vite). Runners never import either; they take a `ShaderSources`.
 */

export const KERNEL_NAMES = [
  'segment-scan',
  'group-reduce',
  'combine-advantages',
  'step-returns',
  'step-group-reduce',
  'sample-actions',
  'gridhouse-step',
  'texthouse-step',
  'shop-step',
  'policy-logits',
  'ppo-forward',
  'ppo-step-loss',
  'ppo-step-grads',
  'ppo-candidate-grads',
  'ppo-candidate-input-grads',
  'ppo-grad-norm',
  'ppo-adam',
] as const;
export type KernelName = (typeof KERNEL_NAMES)[number];

/** WGSL text of every kernel, by name. */
export type ShaderSources = Readonly<Record<KernelName, string>>;
