/**
 * The seven kernels of the fused PPO update (shaders/ppo-*.wgsl) and the uniforms they share, as the
 * runner in fused-ppo.ts dispatches them; their limits mirror shaders/lib/ppo_batch.wgsl.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

/**
 * The uniforms every fused PPO kernel reads: the `Params` struct of shaders/lib/ppo_batch.wgsl, which
 * all seven import; the offsets are reflected from it when each kernel is compiled (kernel.ts).
 */
export const FUSED_PPO_PARAMS = uniformFields([
  ['numSteps', 'u32'],
  ['batchSize', 'u32'],
  ['permOffset', 'u32'],
  ['numRows', 'u32'],
  ['obsDim', 'u32'],
  ['actionDim', 'u32'],
  ['hiddenSize', 'u32'],
  ['numActions', 'u32'],
  ['scale', 'f32'],
  ['clipLow', 'f32'],
  ['clipHigh', 'f32'],
  ['clipRatio', 'f32'],
  ['entropyCoef', 'f32'],
  ['klCoef', 'f32'],
  ['maxGradNorm', 'f32'],
  ['learningRate', 'f32'],
  ['beta1', 'f32'],
  ['beta2', 'f32'],
  ['epsilon', 'f32'],
  ['statsRow', 'u32'],
  ['statsRows', 'u32'],
  ['weightCount', 'u32'],
  ['lossKind', 'u32'],
  ['valueCoef', 'f32'],
]);
export type ParamName = (typeof FUSED_PPO_PARAMS)[number][0];

/**
 * The losses ppo-step-loss differentiates, as its `lossKind` uniform (LOSS_PPO, LOSS_CLONING in
 * shaders/lib/ppo_batch.wgsl): PPO's (docs/maths.md §4) and behaviour cloning's (§9).
 */
export const LOSS_KINDS = { ppo: 0, cloning: 1 } as const;
export type LossKind = keyof typeof LOSS_KINDS;

export const PPO_FORWARD = defineKernel({
  name: 'ppo-forward',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['weights', 'read'],
    ['obs', 'read'],
    ['features', 'read'],
    ['perm', 'read'],
    ['work', 'read_write'],
  ],
});
export const PPO_STEP_LOSS = defineKernel({
  name: 'ppo-step-loss',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['weights', 'read'],
    ['work', 'read_write'],
    ['rows', 'read'],
    ['actions', 'read'],
    ['oldLogProbs', 'read'],
    ['advantages', 'read'],
    ['perm', 'read'],
  ],
});
export const PPO_STEP_GRADS = defineKernel({
  name: 'ppo-step-grads',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['obs', 'read'],
    ['perm', 'read'],
    ['work', 'read_write'],
    ['grads', 'read_write'],
  ],
});
export const PPO_CANDIDATE_GRADS = defineKernel({
  name: 'ppo-candidate-grads',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['weights', 'read'],
    ['work', 'read_write'],
    ['grads', 'read_write'],
  ],
});
export const PPO_CANDIDATE_INPUT_GRADS = defineKernel({
  name: 'ppo-candidate-input-grads',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['features', 'read'],
    ['work', 'read'],
    ['grads', 'read_write'],
  ],
});
export const PPO_GRAD_NORM = defineKernel({
  name: 'ppo-grad-norm',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['grads', 'read'],
    ['work', 'read'],
    ['state', 'read_write'],
    ['statsOut', 'read_write'],
  ],
});
export const PPO_ADAM = defineKernel({
  name: 'ppo-adam',
  params: FUSED_PPO_PARAMS,
  storage: [
    ['weights', 'read_write'],
    ['firstMoment', 'read_write'],
    ['secondMoment', 'read_write'],
    ['grads', 'read'],
    ['state', 'read'],
  ],
});

/** The seven kernels in dispatch order. */
export const FUSED_PPO_KERNELS = [PPO_FORWARD, PPO_STEP_LOSS, PPO_STEP_GRADS, PPO_CANDIDATE_GRADS, PPO_CANDIDATE_INPUT_GRADS, PPO_GRAD_NORM, PPO_ADAM] as const;

/** Invocations per workgroup: 64, and 256 for the one-workgroup norm (its tree sums hold 256). */
export const WORKGROUP = 64;
export const NORM_WORKGROUP = 256;
/** Words of the state buffer before the statistics rows (STATE_ROWS in shaders/lib/ppo_batch.wgsl). */
export const STATE_ROWS = 8;
/** Limits of the kernels' workgroup arrays (MAX_HIDDEN, MAX_ACTIONS in shaders/lib/ppo_batch.wgsl). */
export const FUSED_PPO_MAX_HIDDEN = 512;
export const FUSED_PPO_MAX_ACTIONS = 256;
