/**
 * The GPU rollout's check when the host does not lay out its batch: a seeded sample of its runs (the
 * first CHECKED_RUNS of the keyed permutation, log-prob-check.ts) replayed in a twin of the
 * environment that holds only them, and compared step by step with what the GPU recorded for them
 * (the final records' pass copies their steps, final-records.ts): every action admissible, each
 * step's milestone flag and state key, each run's final record, and the recorded log-probabilities
 * against the policy. The batch's other runs are known to the host only by their final records (its
 * sizes and rewards); their steps stay on the GPU, where the advantages, the update and the credit
 * metrics read them, until something asks for the whole replay (`Rollout.completeReplay`).
 *
 * Why this is a check of the whole batch: every run is played by the same kernel, so a divergence of
 * the WGSL environment from the TypeScript one shows on a seeded sample that the kernel cannot know in
 * advance; and the sample's host work does not grow with the batch.
 */
import type { VecEnv } from '../../envs/types.ts';
import { HOST_FINAL_BITS, unpackHostFinal } from '../gpu/final-records.ts';
import { GpuKernelError } from '../gpu/kernel.ts';
import { permutedIndex, type PermutationKey } from '../gpu/minibatch-permutation.ts';
import type { Policy } from '../policy/policy.ts';
import { Rng } from '../prng.ts';
import { checkFinalRecord, type GpuFinal, MILESTONE_FLAG, twinEnv } from './rollout-records.ts';
import { ReplayMismatchError, RolloutCollector, type Rollout } from './rollout.ts';

/** What the GPU recorded of the sampled runs, as read back: SAMPLE_WORDS blocks of runs × maxSteps words, run after run. */
export interface RecordedSample {
  runs: number;
  maxSteps: number;
  key: PermutationKey;
  words: Uint32Array;
}

/** The batch's per-run fields from the packed final records (`hostFinals`: B words, then B outcomes' bits where `graded`). */
export function runsFromFinals(hostFinals: Uint32Array, B: number, graded: boolean) {
  const runOffsets = new Int32Array(B + 1);
  const success = new Uint8Array(B);
  const milestonesReached = new Uint8Array(B);
  const numMilestones = new Uint8Array(B);
  // Each field's shift and mask read once: this loop runs over every run of the batch, every iteration.
  const field = (name: keyof typeof HOST_FINAL_BITS) => [HOST_FINAL_BITS[name][0], (1 << HOST_FINAL_BITS[name][1]) - 1] as const;
  const [[stepsAt, stepsMask], [wonAt, wonMask], [reachedAt, reachedMask], [countAt, countMask]] = [
    field('steps'),
    field('success'),
    field('milestonesReached'),
    field('numMilestones'),
  ];
  for (let b = 0; b < B; b++) {
    const word = hostFinals[b];
    runOffsets[b + 1] = runOffsets[b] + ((word >>> stepsAt) & stepsMask);
    success[b] = (word >>> wonAt) & wonMask;
    milestonesReached[b] = (word >>> reachedAt) & reachedMask;
    numMilestones[b] = (word >>> countAt) & countMask;
  }
  const outcome = graded ? new Float32Array(hostFinals.buffer, hostFinals.byteOffset + 4 * B, B).slice() : undefined;
  return { runOffsets, success, milestonesReached, numMilestones, ...(outcome ? { outcome } : {}) };
}

/** Each run's final record in `hostFinals` (and its graded outcome), for comparing with a replay. */
export function finalsOf(hostFinals: Uint32Array, B: number, graded: boolean): (b: number) => GpuFinal {
  const outcomes = graded ? new Float32Array(hostFinals.buffer, hostFinals.byteOffset + 4 * B, B) : null;
  return (b) => ({ ...unpackHostFinal(hostFinals[b]), ...(outcomes ? { outcome: outcomes[b] } : {}) });
}

export class SampleReplay {
  private twin: { env: VecEnv; replayer: RolloutCollector } | null = null;

  constructor(
    private readonly env: VecEnv,
    private readonly policy: Policy,
  ) {}

  /** The twin environment for `runs` runs: the batch's environment, options and detector, without dropout. */
  private twinOf(runs: number) {
    if (this.twin?.env.batchSize !== runs) {
      const env = twinEnv(this.env, runs);
      this.twin = { env, replayer: new RolloutCollector(env, this.policy) };
    }
    return this.twin;
  }

  /**
   * The sampled runs replayed on the host (a Rollout of `sample.runs` runs, one per group, in sample
   * order: run i is the batch's run `runs[i]`), after checking every recorded action, milestone flag,
   * state key and final record against the replay: a difference throws GpuKernelError naming the
   * batch's run and step. `episodeSeeds`: the batch's per-run seeds; `hostFinals`: its packed final
   * records. Only for a batch reset without milestone dropout (the twin draws none). `breakAction`:
   * a test hook that spoils the first recorded action.
   */
  async replay(
    episodeSeeds: Uint32Array,
    sample: RecordedSample,
    hostFinals: Uint32Array,
    graded: boolean,
    breakAction = false,
  ): Promise<{ rollout: Rollout; runs: number[] }> {
    const B = episodeSeeds.length;
    const { runs: n, maxSteps: T, words } = sample;
    const runs = Array.from({ length: n }, (_, i) => permutedIndex(i, B, sample.key, 0));
    const block = n * T;
    const logProbWords = new Float32Array(words.buffer, words.byteOffset, block);
    // Step-major, as the replay reads them: sampled run i's step t at t · n + i.
    const actions = new Int32Array(T * n);
    const logProbs = new Float32Array(T * n);
    for (let i = 0; i < n; i++)
      for (let t = 0; t < T; t++) {
        actions[t * n + i] = words[block + i * T + t] & (MILESTONE_FLAG - 1);
        logProbs[t * n + i] = logProbWords[i * T + t];
      }
    if (breakAction) actions[0] = -1;
    const { env, replayer } = this.twinOf(n);
    const seeds = Uint32Array.from(runs, (b) => episodeSeeds[b]);
    env.reset(seeds, new Rng(0)); // draws nothing (no dropout)
    let rollout: Rollout;
    try {
      rollout = await replayer.replay(seeds, 1, seeds, { actions, logProbs });
    } catch (e) {
      if (e instanceof ReplayMismatchError)
        throw new GpuKernelError(
          'gpu rollout',
          `the GPU environment left the TypeScript one: in the sampled runs (the batch's ${runs.join(', ')}, in that order), ${e.message}`,
        );
      throw e;
    }
    const finalOf = finalsOf(hostFinals, B, graded);
    const left = (b: number, what: string, onGpu: number, replayed: number) =>
      new GpuKernelError('gpu rollout', `the GPU environment left the TypeScript one: run ${b}'s ${what} is ${onGpu} on the GPU, ${replayed} in the replay`);
    for (let i = 0; i < n; i++) {
      const b = runs[i];
      checkFinalRecord(b, finalOf(b), rollout, i);
      const from = rollout.runOffsets[i];
      for (let s = from; s < rollout.runOffsets[i + 1]; s++) {
        const t = s - from;
        const flag = words[block + i * T + t] & MILESTONE_FLAG ? 1 : 0;
        if (flag !== rollout.milestones[s]) throw left(b, `step ${t} milestone flag`, flag, rollout.milestones[s]);
        const key = words[2 * block + i * T + t];
        if (key !== rollout.stateKeys[s]) throw left(b, `step ${t} state key`, key, rollout.stateKeys[s]);
      }
    }
    return { rollout, runs };
  }
}
