/**
 * Runner table of shaders/sample-actions.wgsl: one invocation per episode samples its action from the
 * counter-based generator (src/gpu/counter-rng.ts is the CPU twin). Reads the policy's logits, the
 * mask, the done flags and step counts; writes actions, log-probabilities and the uniform draws.
 */
import { defineKernel } from './kernel.ts';
import { uniformLayout } from './uniforms.ts';

export const SAMPLE_ACTIONS = defineKernel({
  name: 'sample-actions',
  params: uniformLayout([
    ['numEpisodes', 'u32'],
    ['numCandidates', 'u32'],
    ['seed', 'u32'],
    ['iteration', 'u32'],
  ]),
  storage: [
    ['logits', 'read'],
    ['mask', 'read'],
    ['done', 'read'],
    ['steps', 'read'],
    ['actions', 'read_write'],
    ['logProbs', 'read_write'],
    ['draws', 'read_write'],
  ],
});

/** Workgroups for one invocation per episode. */
export const perEpisodeWorkgroups = (numEpisodes: number, workgroupSize: number): number => Math.ceil(numEpisodes / workgroupSize);
