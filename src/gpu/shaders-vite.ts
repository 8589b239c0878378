/**
 * Kernel sources for code bundled by Vite (the page, and tests run by Vitest): the `.wgsl` files
 * inlined as text at build time. Node CLIs use `shaders-node.ts` instead.
 */
import combineAdvantages from '../../shaders/combine-advantages.wgsl?raw';
import gridhouseStep from '../../shaders/gridhouse-step.wgsl?raw';
import groupReduce from '../../shaders/group-reduce.wgsl?raw';
import policyLogits from '../../shaders/policy-logits.wgsl?raw';
import ppoAdam from '../../shaders/ppo-adam.wgsl?raw';
import ppoCandidateGrads from '../../shaders/ppo-candidate-grads.wgsl?raw';
import ppoCandidateInputGrads from '../../shaders/ppo-candidate-input-grads.wgsl?raw';
import ppoForward from '../../shaders/ppo-forward.wgsl?raw';
import ppoGradNorm from '../../shaders/ppo-grad-norm.wgsl?raw';
import ppoStepGrads from '../../shaders/ppo-step-grads.wgsl?raw';
import ppoStepLoss from '../../shaders/ppo-step-loss.wgsl?raw';
import sampleActions from '../../shaders/sample-actions.wgsl?raw';
import segmentScan from '../../shaders/segment-scan.wgsl?raw';
import shopStep from '../../shaders/shop-step.wgsl?raw';
import stepGroupReduce from '../../shaders/step-group-reduce.wgsl?raw';
import stepReturns from '../../shaders/step-returns.wgsl?raw';
import texthouseStep from '../../shaders/texthouse-step.wgsl?raw';
import type { ShaderSources } from './shader-source.ts';

export const VITE_SHADERS: ShaderSources = {
  'segment-scan': segmentScan,
  'group-reduce': groupReduce,
  'combine-advantages': combineAdvantages,
  'step-returns': stepReturns,
  'step-group-reduce': stepGroupReduce,
  'sample-actions': sampleActions,
  'gridhouse-step': gridhouseStep,
  'texthouse-step': texthouseStep,
  'shop-step': shopStep,
  'policy-logits': policyLogits,
  'ppo-forward': ppoForward,
  'ppo-step-loss': ppoStepLoss,
  'ppo-step-grads': ppoStepGrads,
  'ppo-candidate-grads': ppoCandidateGrads,
  'ppo-candidate-input-grads': ppoCandidateInputGrads,
  'ppo-grad-norm': ppoGradNorm,
  'ppo-adam': ppoAdam,
};
