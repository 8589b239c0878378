/**
 * Runner table of shaders/sample-actions.wgsl: one invocation per episode samples its action from the
 * counter-based generator (src/gpu/counter-rng.ts is the CPU twin). Reads the policy's logits, the
 * mask, and each episode's done flag and step count from the environment kernel's episode records;
 * writes actions, log-probabilities and the uniform draws. The draw itself is shaders/lib/sampling.wgsl
 * `drawCandidate`, which the whole-episode rollout kernels call too: this kernel lets a test check
 * every draw, u included, against the CPU twin.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const SAMPLE_ACTIONS = defineKernel({
  name: 'sample-actions',
  params: uniformFields([
    ['numEpisodes', 'u32'],
    ['numCandidates', 'u32'],
    ['seed', 'u32'],
    ['iteration', 'u32'],
    /** u32 words per episode record, and the word offsets of its done flag and step count. */
    ['recordWords', 'u32'],
    ['doneField', 'u32'],
    ['stepsField', 'u32'],
  ]),
  storage: [
    ['logits', 'read'],
    ['mask', 'read'],
    ['episodes', 'read'],
    ['actions', 'read_write'],
    ['logProbs', 'read_write'],
    ['draws', 'read_write'],
  ],
});

/** Workgroups for one invocation per episode. */
export const perEpisodeWorkgroups = (numEpisodes: number, workgroupSize: number): number => Math.ceil(numEpisodes / workgroupSize);
