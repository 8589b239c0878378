/**
 * `npm run reliability [-- --webgpuIters N --soakIters N]`: the reliability suite at full size
 * (bench/reliability-checks.ts, bench/reliability-fuzz.ts), written to docs/reliability.md with the
 * command that measured each figure. Exits 1 when any check fails (a crash, an unnamed rejection, a
 * soak that is not flat, a fault that loses state), so the figures on the page are also a verdict.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import * as tf from '@tensorflow/tfjs-core';
import '../cli/register-gradients.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initBackend, uninstallNodeWebGpu } from '../src/backend/node-webgpu.ts';
import { setWebGpuCpuForward } from '../src/backend/webgpu-interop.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { readShaderSources } from '../src/gpu/shaders-node.ts';
import { createAdvantageEngine } from '../src/engine/advantage-engine.ts';
import { checkpointCost, killDuringWrite, nonFiniteBatch, soak, type SoakResult } from './reliability-checks.ts';
import { fuzzAdvantageInputs, fuzzTrainFlags, fuzzUrlQueries, type FuzzResult } from './reliability-fuzz.ts';
import { ROOT } from '../scripts/cli.ts';
import { pageSoak, pageSoakSection, pageSoakSvg, type PageSoakResult } from './page-soak.ts';

const FLAGS = {
  soakIters: { kind: { type: 'int', min: 10, max: 100000 }, doc: 'iterations of the wasm soak (default 1000)' },
  webgpuIters: { kind: { type: 'int', min: 0, max: 10000 }, doc: 'iterations of the webgpu (Dawn) soak; 0 skips it (default 30)' },
  pageIters: {
    kind: { type: 'int', min: 0, max: 100000 },
    doc: 'iterations of the page soak in headless Chromium (bench/page-soak.ts); 0 skips it (default 200)',
  },
  out: { kind: 'string', doc: 'the report (default docs/reliability.md)' },
} as const;
const USAGE = `usage: npm run reliability -- [--soakIters N] [--webgpuIters N] [--pageIters N] [--out FILE]\n${flagsHelp(FLAGS)}`;

/** The soak's run: small enough for 1000 iterations in a minute or two on two cores, every part live. */
const SOAK: TrainConfig = {
  ...DEFAULT_CONFIG,
  env: 'gridhouse',
  horizon: 'short',
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  sftEpisodes: 0,
  method: 'beacon',
};
const SMALL: TrainConfig = { ...DEFAULT_CONFIG, horizon: 'tiny', tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, sftEpisodes: 0 };
const FUZZ = { url: 10_000, flags: 2_000, advantages: 2_000, seed: 12 };

async function main(argv: string[]): Promise<number> {
  const { flags, help } = parseFlags(argv, FLAGS);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const soakIters = flags.soakIters ?? 1000;
  const webgpuIters = flags.webgpuIters ?? 30;
  const pageIters = flags.pageIters ?? 200;
  const out = flags.out ?? 'docs/reliability.md';
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || failures.push(what));

  log('fuzz …');
  const fuzz: [string, string, FuzzResult][] = [
    ['page URL queries → readPageState', 'src/page/url-state.ts', fuzzUrlQueries(FUZZ.url, FUZZ.seed)],
    ['train command lines → parseFlags (train’s table)', 'cli/flags.ts, cli/train-flags.ts', fuzzTrainFlags(FUZZ.flags, FUZZ.seed)],
    ['advantages JSON → parseAdvantageRequest + estimator', 'cli/batch-json.ts, src/methods', fuzzAdvantageInputs(FUZZ.advantages, FUZZ.seed)],
  ];
  for (const [name, , r] of fuzz) check(r.crashes === 0 && r.stackTraces === 0 && r.unnamed === 0, `fuzz ${name}: ${r.examples.join('; ')}`);

  await initBackend('wasm', { strict: true });
  log(`wasm soak, ${soakIters} iterations …`);
  const wasmSoak = await soak(
    { ...SOAK, iters: soakIters, backend: 'wasm' },
    () => createAdvantageEngine('wasm', SOAK.method, readShaderSources),
    Math.max(1, Math.floor(soakIters / 20)),
    Math.max(1, Math.floor(soakIters / 4)),
  );
  check(wasmSoak.tensorSpread === 0, `wasm soak: tensor count moved by ${wasmSoak.tensorSpread}`);

  log('faults and checkpoint cost …');
  const nonFinite = [];
  for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
    nonFinite.push(await nonFiniteBatch({ ...SMALL, backend: 'wasm' }, value));
  for (const f of nonFinite)
    check(f.halted && f.weightsIntact && f.iterations === 1 && /non-finite/.test(f.message ?? ''), `non-finite ${f.value}: ${JSON.stringify(f)}`);
  const kill = await killDuringWrite({ ...SMALL, backend: 'wasm' }, ROOT);
  check(kill.killedBySignal && kill.previousIntact && kill.previousReadable, `kill during write: ${JSON.stringify(kill)}`);
  const costs = [
    ['soak run (gridhouse short, hiddenSize 16)', await checkpointCost({ ...SOAK, backend: 'wasm' }, 3, 9)],
    [
      'page defaults (gridhouse long, hiddenSize 64, beacon)',
      await checkpointCost({ ...DEFAULT_CONFIG, sftEpisodes: 0, tasksPerIteration: 2, groupSize: 2, backend: 'wasm' }, 2, 9),
    ],
    [
      'texthouse long, hiddenSize 64, critic PPO',
      await checkpointCost({ ...DEFAULT_CONFIG, env: 'texthouse', method: 'ppo', sftEpisodes: 0, tasksPerIteration: 2, groupSize: 2, backend: 'wasm' }, 2, 9),
    ],
  ] as const;

  let gpuSoak: SoakResult | string = 'skipped (--webgpuIters 0)';
  if (webgpuIters > 0) {
    log(`webgpu soak, ${webgpuIters} iterations …`);
    try {
      const report = await initBackend('webgpu', { strict: true });
      setWebGpuCpuForward(false);
      const config = { ...SMALL, iters: webgpuIters, backend: 'webgpu' as const, method: 'beacon' as const };
      gpuSoak = await soak(
        config,
        () => createAdvantageEngine('webgpu', 'beacon', readShaderSources),
        Math.max(1, Math.floor(webgpuIters / 8)),
        Math.max(1, Math.floor(webgpuIters / 2)),
      );
      gpuSoak = { ...gpuSoak, adapter: report.adapterName } as SoakResult;
      check(gpuSoak.tensorSpread === 0 && gpuSoak.poolGrowth === 0, `webgpu soak: tensors ±${gpuSoak.tensorSpread}, pool +${gpuSoak.poolGrowth} bytes`);
      tf.removeBackend('webgpu');
      uninstallNodeWebGpu();
    } catch (e) {
      gpuSoak = `not measured: ${(e as Error).message}`;
      failures.push(`webgpu soak: ${gpuSoak}`);
    }
  }

  let page: PageSoakResult | null = null;
  if (pageIters > 0) {
    log(`page soak, ${pageIters} iterations in headless Chromium …`);
    page = await pageSoak(pageIters, log);
    check(page.tensorSpread === 0 && page.errors.length === 0, `page soak: tensors ±${page.tensorSpread}, errors ${JSON.stringify(page.errors)}`);
    writeFileSync(out.replace(/[^/]*$/, 'page-soak.svg'), pageSoakSvg(page));
  }

  writeFileSync(out, report({ soakIters, webgpuIters, pageIters, fuzz, wasmSoak, gpuSoak, page, nonFinite, kill, costs, failures }));
  log(failures.length ? `FAILED:\n${failures.join('\n')}` : `all checks passed; report in ${out}`);
  return failures.length ? 1 : 0;
}

type Report = {
  soakIters: number;
  webgpuIters: number;
  pageIters: number;
  page: PageSoakResult | null;
  fuzz: [string, string, FuzzResult][];
  wasmSoak: SoakResult;
  gpuSoak: SoakResult | string;
  nonFinite: Awaited<ReturnType<typeof nonFiniteBatch>>[];
  kill: Awaited<ReturnType<typeof killDuringWrite>>;
  costs: readonly (readonly [string, Awaited<ReturnType<typeof checkpointCost>>])[];
  failures: string[];
};

function soakTable(s: SoakResult): string {
  const gpu = s.samples[0]?.gpuPoolBytes !== undefined;
  const head = `| iteration | tfjs tensors | JS heap (MB) |${gpu ? ' GPU bytes live | GPU pool bytes |' : ''}\n| --: | --: | --: |${gpu ? ' --: | --: |' : ''}`;
  const rows = s.samples.map((x) => `| ${x.iteration} | ${x.numTensors} | ${x.heapMB} |${gpu ? ` ${x.gpuBytes} | ${x.gpuPoolBytes} |` : ''}`);
  return [head, ...rows].join('\n');
}

function report(r: Report): string {
  const extra = [
    r.soakIters !== 1000 ? `--soakIters ${r.soakIters}` : '',
    r.webgpuIters !== 30 ? `--webgpuIters ${r.webgpuIters}` : '',
    r.pageIters !== 200 ? `--pageIters ${r.pageIters}` : '',
  ].filter(Boolean);
  const cmd = `npm run reliability${extra.length ? ` -- ${extra.join(' ')}` : ''}`;
  const ms = (x: number) => x.toFixed(1);
  const gpu =
    typeof r.gpuSoak === 'string'
      ? r.gpuSoak
      : `${r.gpuSoak.iterations} iterations in ${r.gpuSoak.seconds.toFixed(0)} s on ${(r.gpuSoak as SoakResult & { adapter?: string }).adapter ?? 'an unknown adapter'}: tensor count spread **${r.gpuSoak.tensorSpread}**, buffer pool growth **${r.gpuSoak.poolGrowth} bytes** after the first sample, ${r.gpuSoak.checkpointRoundTrips} checkpoint round trips.\n\n${soakTable(r.gpuSoak)}`;
  return `# Reliability

Figures measured by \`${cmd}\` (bench/reliability.ts) on ${cpus().length} CPU cores, ${new Date().toISOString().slice(0, 10)}.
Verdict: **${r.failures.length === 0 ? 'every check passed' : `${r.failures.length} check(s) failed`}**.${r.failures.length ? `\n\n${r.failures.map((f) => `- ${f}`).join('\n')}` : ''}
\`npm test\` runs the same checks small (test/reliability.test.ts), and these test files cover the rest:

| what | test | command |
| --- | --- | --- |
| stop after k ∈ {0…3} iterations and resume: records equal, every registered method, cpu and wasm | test/trainer/checkpoint.test.ts | \`npx vitest run test/trainer/checkpoint.test.ts\` |
| train CLI: --checkpoint, SIGTERM, --resume, conflicting flags, bad checkpoints exit 2 and stay byte-identical, kill mid-write | test/cli/train-checkpoint.test.ts | \`npx vitest run test/cli/train-checkpoint.test.ts\` |
| the short suite below | test/reliability.test.ts | \`npx vitest run test/reliability.test.ts\` |
| page: reload resumes (records equal an uninterrupted run's, wasm), device loss continues, run file save/open and bad files, storage unavailable or full, background tab | test/e2e/durable.test.ts | \`npx vitest run test/e2e/durable.test.ts\` |
| page worker: checkpoint after every iteration, device loss continues with an uninterrupted run's records | test/worker/training-loop.test.ts | \`npx vitest run test/worker/training-loop.test.ts\` |
| run files: round trip, every fault named | test/page/run-file.test.ts | \`npx vitest run test/page/run-file.test.ts\` |

## Soak

wasm, ${r.wasmSoak.iterations} iterations of BEACON (gridhouse short, 4 × 4 runs, hiddenSize 16), saved, disposed and
reopened from its checkpoint bytes ${r.wasmSoak.checkpointRoundTrips} times on the way, ${r.wasmSoak.seconds.toFixed(0)} s: tensor count spread after the first
sample **${r.wasmSoak.tensorSpread}**.

${soakTable(r.wasmSoak)}

webgpu on Dawn (BEACON, WGSL advantage kernels, gridhouse tiny, 2 × 2 runs, hiddenSize 8; GPU pool bytes = live
buffers + freed buffers that tfjs's buffer manager keeps for reuse, keyed by size): ${gpu}

## Fuzz

fast-check, seed ${FUZZ.seed}. A crash is an exception other than the input's own error (or any exception from the
URL reader); a rejection must name the field it rejects.

| input | code | cases | accepted | rejected | crashes | stack traces | unnamed rejections |
| --- | --- | --: | --: | --: | --: | --: | --: |
${r.fuzz.map(([name, code, f]) => `| ${name} | ${code} | ${f.cases} | ${f.accepted} | ${f.rejected} | ${f.crashes} | ${f.stackTraces} | ${f.unnamed} |`).join('\n')}

## Injected faults

| fault | result |
| --- | --- |
${r.nonFinite.map((f) => `| ${f.value} in the second batch's advantages | ${f.halted ? 'halted' : 'NOT halted'} after ${f.iterations} iteration(s), weights ${f.weightsIntact ? 'bit-identical to the last good update' : 'CHANGED'}: “${f.message}” |`).join('\n')}
| SIGKILL between the flushed temporary file and the rename of a checkpoint write | ${r.kill.killedBySignal ? 'killed' : 'NOT killed'}; previous checkpoint ${r.kill.previousIntact ? 'byte-identical' : 'CHANGED'} and ${r.kill.previousReadable ? 'resumable' : 'NOT readable'} |
| truncated / corrupted / wrong-schema / unreadable checkpoint | exit 2 naming the fault, file byte-identical (test/cli/train-checkpoint.test.ts) |
| GPU device lost mid-iteration (page, WebGPU) | continues on a new device at the last completed iteration, the badge says so (test/e2e/durable.test.ts) |
| background tab (page hidden, no animation frames, 1 s timers) | training goes on at its visible pace in the workers (test/e2e/durable.test.ts) |
| page storage (IndexedDB) unavailable or full | a notice, training goes on (test/e2e/durable.test.ts) |

## Checkpoint size and time

Median of 9, wasm. Encode = state read back from the backend + SHA-256; write = temporary file, fsync, rename;
read = read + checksum + header checks.

| run | bytes | encode (ms) | write (ms) | read (ms) |
| --- | --: | --: | --: | --: |
${r.costs.map(([name, c]) => `| ${name} | ${c.bytes} | ${ms(c.encodeMs)} | ${ms(c.writeMs)} | ${ms(c.readMs)} |`).join('\n')}
${r.page ? `\n${pageSoakSection(r.page, `${cmd} (its page soak)`)}\n` : ''}`;
}

runCommand(() => main(process.argv.slice(2)), USAGE);
