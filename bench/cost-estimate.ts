/**
 * `npm run -s bench:cost`: the cost model's ESTIMATE of the rollout's and the update's milliseconds on an
 * NVIDIA H200 (gpu-kernel-model.ts: serial depth and arithmetic, per kernel version), at the page
 * defaults (GridHouse long, 8 × 8 runs) and at 4,096 runs (64 × 64), beside what the H200 measured on
 * 2026-12-04 (docs/results/device/h200-2026-12-04.json, bench:train's parts), and the FLOPs per
 * iteration against the useful arithmetic. Nothing runs on a GPU: the shapes are those of the measured
 * iterations (their env steps; the distinct candidate rows as counted at those sizes, about 232 and 500).
 * Then the page defaults' iteration with 4, 8 and 16 seeds of one method against one seed (seedsEstimate).
 */
import { readFileSync } from 'node:fs';
import { parseFlags, runCommand } from '../cli/flags.ts';
import {
  CURRENT_KERNELS,
  DEVICES,
  formatPhase,
  KERNEL_VERSIONS,
  kernelFlops,
  measuredShape,
  phaseEstimates,
  seedsEstimate,
  usefulFlops,
} from './gpu-kernel-model.ts';

const RECORD = new URL('../docs/results/device/h200-2026-12-04.json', import.meta.url);

interface TrainPart {
  name: string;
  result?: { iterations: Record<string, string>[] };
}

/** The H200's measured rollout and update milliseconds and env steps of a bench:train part. */
function measured(name: string): { rolloutMs: number; updateMs: number; envSteps: number } {
  const parts = (JSON.parse(readFileSync(RECORD, 'utf8')) as { parts: TrainPart[] }).parts;
  const row = parts.find((p) => p.name === name)?.result?.iterations[0];
  if (!row) throw new Error(`${RECORD.pathname}: no part ${JSON.stringify(name)}`);
  return { rolloutMs: Number(row['rollout ms']), updateMs: Number(row['update ms']), envSteps: Number(row['steps/iter']) };
}

const USAGE = 'usage: npm run -s bench:cost (no flags)';

function main(): number {
  // No flags: an unknown one is refused (exit 2, naming it) before anything is printed.
  if (parseFlags(process.argv.slice(2), {}).help) {
    console.log(USAGE);
    return 0;
  }
  const device = DEVICES.h200;
  const cases = [
    { label: 'page defaults (GridHouse long, 8 × 8 runs)', part: 'train webgpu, page defaults', runs: 64, distinctRows: 232 },
    { label: '4,096 runs (GridHouse long, 64 × 64)', part: 'train webgpu, 4096 runs', runs: 4096, distinctRows: 500 },
  ];
  console.log(`ESTIMATE for the ${device.name} (${device.source})`);
  for (const c of cases) {
    const m = measured(c.part);
    const shape = measuredShape(c.runs, m.envSteps, c.distinctRows);
    console.log(`\n${c.label}: ${m.envSteps.toLocaleString('en-US')} env steps, about ${c.distinctRows} distinct candidate rows`);
    console.log(`  measured on the H200, 2026-12-04 (one bench:train iteration): rollout ${m.rolloutMs} ms, update ${m.updateMs} ms`);
    for (const version of Object.values(KERNEL_VERSIONS)) {
      const e = phaseEstimates(version, shape, device);
      const flops = kernelFlops(version, shape).total;
      console.log(`  ${version.name}:`);
      console.log(`    rollout ${formatPhase(e.rollout)}`);
      console.log(`    update  ${formatPhase(e.update)}`);
      console.log(
        `    ${(flops / 1e9).toFixed(1)} GFLOP per iteration, ${(flops / usefulFlops(shape)).toFixed(2)}× the useful arithmetic (${(usefulFlops(shape) / 1e9).toFixed(1)} GFLOP)`,
      );
    }
  }
  const defaults = cases[0];
  const shape = measuredShape(defaults.runs, measured(defaults.part).envSteps, defaults.distinctRows);
  console.log(`\n${defaults.label}, several seeds of one method (${CURRENT_KERNELS.name}; rollouts and updates side by side, a seed axis in each; midpoints):`);
  for (const seeds of [4, 8, 16]) {
    const e = seedsEstimate(CURRENT_KERNELS, shape, seeds, device);
    console.log(`  ${seeds} seeds: ${(e.all * 1000).toFixed(1)} ms against ${(e.one * 1000).toFixed(1)} ms for one seed (${(e.all / e.one).toFixed(2)}×)`);
  }
  return 0;
}

runCommand(main, USAGE);
