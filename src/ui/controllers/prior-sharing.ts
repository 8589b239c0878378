/**
 * The sharing of the SFT prior among a race's workers (docs/maths.md §9): the first entry's worker
 * computes each seed's prior once and the training controller hands it to every worker, so every
 * method starts from the same weights without each worker training the prior again. At the page
 * defaults the prior is shipped precomputed (src/page/shipped-prior.ts, the same bytes): no worker
 * trains it, and every worker builds its trainer at once.
 */
import type { RaceConfig } from '../../config.ts';
import type { Method } from '../../methods/registry.ts';
import { shippedPrior } from '../../page/shipped-prior.ts';
import { entryConfig } from '../../race/entries.ts';
import type { PolicyWeights } from '../../policy/policy.ts';
import type { PriorMessage } from '../../worker/protocol.ts';
import type { TrainingWorkerClient } from '../../worker/worker-client.ts';

/** What a prior request needs to know of the race. */
export interface PriorRequest {
  /** The race's config, its backend already resolved (the probe's choice under `auto`). */
  config: RaceConfig;
  /** The registry method of the race's first entry: a variant races from the same prior as its method. */
  method: Method;
  /** The seeds every entry trains, in order. */
  seeds: readonly number[];
  wasmThreads: number;
  /** True when every panel continues from a saved state: their weights are there, no prior to train. */
  allContinue: boolean;
}

export class PriorSharing {
  /** Answers awaited from the first worker's `prior` requests, oldest first. */
  private waiters: ((m: PriorMessage) => void)[] = [];

  /** The first worker's answer to the oldest open request. */
  receive(m: PriorMessage): void {
    this.waiters.shift()?.(m);
  }

  /** Forgets every open request (its workers were stopped). */
  clear(): void {
    this.waiters = [];
  }

  /**
   * The race's prior of every seed, in seed order: each seed's prior depends on its seed (its
   * demonstrations and initial weights do), so each is computed once and shared by every method.
   * One after another: the first worker answers `prior` requests in the order they finish. Null for a
   * seed when the prior is off (`sftEpisodes` 0) or failed (then each trainer reports the failure itself).
   */
  async seedPriors(first: TrainingWorkerClient | undefined, request: PriorRequest): Promise<(PolicyWeights | null)[]> {
    const priors: (PolicyWeights | null)[] = [];
    for (const seed of request.seeds) priors.push(await this.racePrior(first, { ...request.config, seed }, request));
    return priors;
  }

  private racePrior(first: TrainingWorkerClient | undefined, config: RaceConfig, request: PriorRequest): Promise<PolicyWeights | null> {
    if (!first || request.allContinue) return Promise.resolve(null);
    const shipped = shippedPrior(entryConfig(request.method, config), config.backend);
    const compute = () => this.computed(first, config, request);
    if (shipped) return shipped.then((weights) => weights ?? compute(), compute);
    return compute();
  }

  /** The prior as the first worker computes it on its backend. */
  private computed(first: TrainingWorkerClient, config: RaceConfig, request: PriorRequest): Promise<PolicyWeights | null> {
    return new Promise<PolicyWeights | null>((resolve) => {
      this.waiters.push((m) => resolve(m.error ? null : m.weights));
      first.send({ type: 'prior', config, method: request.method, wasmThreads: request.wasmThreads });
    });
  }
}
