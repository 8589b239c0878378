/**
 * `npx tsx scripts/detector-cost.ts [docs/results/study.json] [--workers 2]`: the detector study's cost
 * (pre-registration amendment 2), estimated from study v3's own per-run seconds (src/study/detector-cost.ts):
 * per set and environment, the runs, worker-minutes two ways, and wall minutes on the workers given.
 */
import { readFileSync } from 'node:fs';
import type { EnvName } from '../envs/index.ts';
import { DetectorCostModel, type CostRun } from '../src/study/detector-cost.ts';
import { DETECTOR_SETS, type DetectorSet } from '../src/study/detector-variants.ts';
import { buildMatrix, seedList } from '../src/study/matrix.ts';
import { FULL_PROFILE } from '../src/study/profile.ts';

const args = process.argv.slice(2);
const w = args.indexOf('--workers');
const workers = w >= 0 ? Number(args[w + 1]) : 2;
const file = args.find((a, i) => !a.startsWith('--') && (w < 0 || i !== w + 1)) ?? 'docs/results/study.json';
const doc = JSON.parse(readFileSync(file, 'utf8')) as { runs: CostRun[] };
const model = new DetectorCostModel(doc.runs);
const minutes = (s: number) => (s / 60).toFixed(1);

console.log(
  `from ${file}: ${doc.runs.length} runs; ${workers} workers; per-worker prior and start-up (long): ${FULL_PROFILE.envs.map((e) => `${e} ${model.priorSeconds(e).toFixed(1)} s`).join(', ')}`,
);
console.log('set        env        runs  as measured (worker-min)  prior apart (worker-min)');
for (const set of Object.keys(DETECTOR_SETS) as DetectorSet[]) {
  const specs = buildMatrix({ ...FULL_PROFILE, variants: [], ablations: [], detector: DETECTOR_SETS[set] }, seedList(FULL_PROFILE, FULL_PROFILE.seeds));
  for (const env of FULL_PROFILE.envs) {
    const e = model.estimate(
      specs.filter((s) => s.env === (env as EnvName)),
      workers,
    );
    console.log(
      `${set.padEnd(10)} ${env.padEnd(10)} ${String(e.runs).padStart(4)}  ${minutes(e.asMeasured).padStart(24)}  ${minutes(e.priorApart).padStart(24)}`,
    );
  }
  const all = model.estimate(specs, workers);
  console.log(
    `${set.padEnd(10)} ${'all'.padEnd(10)} ${String(all.runs).padStart(4)}  ${minutes(all.asMeasured).padStart(24)}  ${minutes(all.priorApart).padStart(24)}   → wall on ${workers} workers: ${minutes(all.asMeasured / workers)} / ${minutes(all.priorApart / workers)} min`,
  );
}
