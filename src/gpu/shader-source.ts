/**
 * Names of the WGSL kernels and the shape of their sources.
 *
 * The `.wgsl` files in shaders/ are the single source of each kernel; a kernel imports the helpers
 * it shares from shaders/lib/ and is linked by WESL (shader-link.ts, docs/wgsl.md). How the files'
 * text is obtained differs by host, so it is injected: `shaders-vite.ts` inlines them with Vite (the
 * page, and Vitest, which transforms through Vite); `shaders-node.ts` reads them from disk (tsx CLIs
 * and benchmarks, which have no Vite). Runners never import either; they take a `ShaderSources`,
 * the linked WGSL of each kernel.
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
  'minibatch-permutation',
  'ppo-gather',
  'candidate-ranks',
  'candidate-rows',
  'final-records',
  'critic-values',
  'critic-value-loss',
  'critic-head-grads',
  'gridhouse-rollout',
  'texthouse-rollout',
  'shop-rollout',
  'credit-metrics-steps',
  'credit-metrics-keys',
] as const;
export type KernelName = (typeof KERNEL_NAMES)[number];

/** WGSL text of every kernel, by name. */
export type ShaderSources = Readonly<Record<KernelName, string>>;

/** Where an offset of a linked kernel's text comes from, as `shaders/<file>.wgsl:<line>:<column>`. */
export type ShaderOrigin = (offset: number) => string;

const ORIGINS = new Map<string, ShaderOrigin>();

/** Called by the linker for each text it emits, so that compiler messages can name the source file. */
export function registerShaderOrigin(linked: string, origin: ShaderOrigin): void {
  ORIGINS.set(linked, origin);
}

/**
 * The file and line of an offset in a linked kernel text, or null for a text the linker did not
 * emit (a test's edited copy, say): a compiler message then keeps its line in the text itself.
 */
export function shaderOrigin(linked: string, offset: number): string | null {
  return ORIGINS.get(linked)?.(offset) ?? null;
}
