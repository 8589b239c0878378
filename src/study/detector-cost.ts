/**
 * What the detector study will cost, estimated from study v3's own runs before any of its runs (the
 * pre-registration's amendment 2 quotes it; `npx tsx scripts/detector-cost.ts` prints it). An estimate,
 * from one machine's measured seconds, two ways:
 *
 * - **as measured**: each arm's run costs what its base variant's v3 runs cost on average, same
 *   environment, long horizon (their recorded `seconds`, start-up and SFT prior included);
 * - **prior apart**: the training loop alone (`secondsPerIteration × iterations`) per run, plus the SFT
 *   prior (memoised per worker process: src/trainer/sft-prior.ts) once per environment, seed and teacher
 *   per worker. v3 paid each shop prior (about 33 s) inside the first runs of a seed, so "as measured"
 *   counts it again in every GRPO and BEACON shop run; this second reading does not.
 *
 * A detector setting is assumed to cost what its base costs (it changes which steps are milestones, not
 * how many steps a run takes within its env-step budget).
 */
import type { EnvName } from '../../envs/index.ts';
import { type DetectorVariant, detectorVariant } from './detector-variants.ts';
import type { RunSpec } from './matrix.ts';
import type { RunResult } from './summary.ts';
import type { VariantName } from './variants.ts';

export type CostRun = Pick<RunResult, 'env' | 'horizon' | 'variant' | 'seed' | 'seconds' | 'secondsPerIteration' | 'iterations'>;

export interface CostEstimate {
  runs: number;
  /** Worker-seconds, each run at its base's mean measured seconds. */
  asMeasured: number;
  /** Worker-seconds: training loops plus each prior once per worker. */
  priorApart: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : Number.NaN);
/** A run's training loop; a run that recorded no iteration time counts whole. */
const loopSeconds = (r: CostRun) => (r.secondsPerIteration === null ? r.seconds : r.secondsPerIteration * r.iterations);

export class DetectorCostModel {
  private readonly byCell = new Map<string, CostRun[]>();
  private readonly prior = new Map<EnvName, number>();

  constructor(
    v3Runs: readonly CostRun[],
    readonly horizon: RunSpec['horizon'] = 'long',
  ) {
    const bySeed = new Map<string, number>();
    for (const r of v3Runs) {
      if (r.horizon !== horizon) continue;
      const key = `${r.env}|${r.variant}`;
      this.byCell.set(key, [...(this.byCell.get(key) ?? []), r]);
      // A seed's prior: the most any of its runs spent outside its training loop.
      const seedKey = `${r.env}|${r.seed}`;
      bySeed.set(seedKey, Math.max(bySeed.get(seedKey) ?? 0, r.seconds - loopSeconds(r)));
    }
    const envs = new Set([...bySeed.keys()].map((k) => k.split('|')[0] as EnvName));
    for (const env of envs) this.prior.set(env, mean([...bySeed].filter(([k]) => k.startsWith(`${env}|`)).map(([, v]) => v)));
  }

  /** The v3 runs an arm's cost is read from: its base variant's, in the environment it runs in. */
  private baseRuns(env: EnvName, variant: VariantName): CostRun[] {
    const base = (detectorVariant(variant) as DetectorVariant | null)?.base ?? variant;
    const runs = this.byCell.get(`${env}|${base}`);
    if (!runs?.length) throw new RangeError(`no ${this.horizon} runs of ${base} in ${env} to estimate ${variant} from`);
    return runs;
  }

  /** Mean measured seconds of one run of `variant` in `env`. */
  runSeconds(env: EnvName, variant: VariantName): number {
    return mean(this.baseRuns(env, variant).map((r) => r.seconds));
  }

  /** Mean training-loop seconds of one run of `variant` in `env`. */
  loopSeconds(env: EnvName, variant: VariantName): number {
    return mean(this.baseRuns(env, variant).map(loopSeconds));
  }

  /** Mean seconds a worker spends on one SFT prior (and start-up) in `env`. */
  priorSeconds(env: EnvName): number {
    return this.prior.get(env) ?? 0;
  }

  /** The cost of `specs` on `workers` workers (each worker trains each prior it needs once, at worst). */
  estimate(specs: readonly Pick<RunSpec, 'env' | 'variant' | 'seed'>[], workers: number): CostEstimate {
    const priors = new Set<string>();
    let asMeasured = 0;
    let loops = 0;
    for (const s of specs) {
      asMeasured += this.runSeconds(s.env, s.variant);
      loops += this.loopSeconds(s.env, s.variant);
      priors.add(`${s.env}|${s.seed}|${detectorVariant(s.variant)?.overrides.demoNoise ?? 0}`);
    }
    const priorSeconds = [...priors].reduce((a, k) => a + this.priorSeconds(k.split('|')[0] as EnvName), 0);
    return { runs: specs.length, asMeasured, priorApart: loops + Math.min(workers, specs.length) * priorSeconds };
  }
}
