/**
 * The identity of an SFT prior (docs/maths.md §9): every setting its weights depend on, and the backend
 * whose float arithmetic computed them. Kept apart from the prior's training (sft-prior.ts) so the page
 * can name a prior, and recognise the one it ships precomputed, without loading tfjs.
 */
import type { TrainConfig } from '../config.ts';
import { priorEpisodes, priorEpochs } from './prior-size.ts';

/** The key of `config`'s prior computed on `backend` (tfjs's backend name: `wasm`, `cpu`, `webgpu`). */
export function priorKeyOn(config: TrainConfig, backend: string): string {
  const { env, horizon, hiddenSize, seed, sftLearningRate, maxGradNorm, demoNoise } = config;
  return JSON.stringify({
    env,
    horizon,
    hiddenSize,
    seed,
    episodes: priorEpisodes(config),
    sftEpochs: priorEpochs(config),
    sftLearningRate,
    maxGradNorm,
    // Named only when on, so that the keys of an exact teacher's priors (in checkpoints) stay as they were.
    ...(demoNoise > 0 ? { demoNoise } : {}),
    backend,
  });
}
