/**
 * `npm run bench:device [-- --budget 300 --out DIR --allowSoftware]`: the measurements to run on a
 * machine with a real GPU, in one go and one JSON summary on stdout (progress on stderr), within the
 * budget (default 5 minutes):
 * - `bench:gpu`: WebGPU API calls, bytes, pipelines, host milliseconds and seconds per iteration (Dawn in
 *   Node), the page defaults one case per process, each 4,096-run case with its 8 × 8 twin in one process
 *   (so the part's JSON holds the verdict that compares them);
 * - `bench:train`, BEACON, webgpu against wasm, page defaults and 4,096 runs;
 * - `bench:page`, webgpu against wasm, page defaults and 4,096 runs (headless Chromium).
 *
 * GPU drivers: Dawn in Node takes the machine's Vulkan driver (on Linux with an NVIDIA GPU, the NVIDIA
 * Vulkan ICD) and falls back to SwiftShader only where none answers (src/backend/node-webgpu.ts); this
 * script never sets VK_ICD_FILENAMES, and says so in the summary when the caller did. Headless Chromium
 * gets Vulkan and WebGPU flags (--use-angle=vulkan --enable-features=Vulkan --disable-vulkan-surface)
 * through BEACON_CHROMIUM_FLAGS, unless the caller set that variable. The adapter each part ran on is in
 * its own output (bench:gpu's `adapter`, bench:page's `adapter` per backend): read it before quoting a
 * figure as a GPU's.
 *
 * Each part runs as its own process with a share of the budget; a part that fails or runs out of time is
 * reported as such, with its stderr's last lines, and the others still run. Each part's JSON is written
 * to `--out` (default `bench-device/`) as soon as it is done, so a time-out or a lost machine loses one
 * part, not the run.
 *
 * First it asks Dawn for the adapter, prints its description and driver, and refuses a software adapter
 * (SwiftShader, llvmpipe: src/backend/select.ts `isSoftwareAdapter`), naming it and exiting with 2: a
 * figure from the CPU must not pass for a GPU's. `--allowSoftware` runs anyway (to try the script on a
 * machine without a GPU); the summary then says so. docs/performance-device.md says how to run it on a
 * machine that reaches no registry.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { cpus, platform } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';

import { initBackend } from '../src/backend/node-webgpu.ts';
import { adapterDisplayName, isSoftwareAdapter } from '../src/backend/select.ts';

const FLAGS = {
  budget: { kind: { type: 'int', min: 60, max: 3600 }, doc: 'seconds for the whole script (default 300)' },
  out: { kind: 'string', doc: "folder for each part's JSON, written as soon as the part is done (default bench-device)" },
  allowSoftware: { kind: 'switch', doc: "run on a software adapter too (to try the script; its figures are the CPU's)" },
} as const;
const USAGE = `usage: npm run bench:device [-- --budget SECONDS --out DIR --allowSoftware]\n${flagsHelp(FLAGS)}`;

const RUNS_4096 = ['--tasksPerIteration', '64', '--groupSize', '64'];
const CHROMIUM_GPU_FLAGS = '--use-angle=vulkan --enable-features=Vulkan --disable-vulkan-surface';

interface Part {
  name: string;
  script: string;
  args: string[];
  /** Share of the budget. */
  share: number;
}

/** bench:gpu's cases, and critic PPO's iteration (its value network on kernels of its own). */
const GPU_CASES = [
  ['--cases', 'gridhouse'],
  ['--cases', 'texthouse'],
  ['--cases', 'shop'],
  ['--cases', 'gridhouse-64,gridhouse-4096'],
  ['--cases', 'texthouse-64,texthouse-4096'],
  ['--cases', 'shop-64,shop-4096'],
  ['--cases', 'gridhouse-64', '--method', 'ppo'],
];

const PARTS: Part[] = [
  ...GPU_CASES.map(
    (args): Part => ({ name: `gpu ${args.slice(1).join(' ')}`, script: 'bench/gpu.ts', args: ['--json', ...args], share: 0.25 / GPU_CASES.length }),
  ),
  {
    name: 'train webgpu, page defaults',
    script: 'bench/train.ts',
    // 7: bench:train leaves out 2, so 5 measured iterations give a spread.
    args: ['--json', '--backend', 'webgpu', '--methods', 'beacon', '--iters', '7', '--skipUpdateRate'],
    share: 0.08,
  },
  {
    name: 'train wasm, page defaults',
    script: 'bench/train.ts',
    args: ['--json', '--backend', 'wasm', '--methods', 'beacon', '--iters', '4', '--skipUpdateRate'],
    share: 0.08,
  },
  {
    name: 'train webgpu, 4096 runs',
    script: 'bench/train.ts',
    args: ['--json', '--backend', 'webgpu', '--methods', 'beacon', '--iters', '7', '--skipUpdateRate', ...RUNS_4096],
    share: 0.12,
  },
  {
    name: 'train wasm, 4096 runs',
    script: 'bench/train.ts',
    // One measured iteration: wasm takes about 18 s one at 4,096 runs (H200 host, 2026-12-04), more would not fit the budget.
    args: ['--json', '--backend', 'wasm', '--methods', 'beacon', '--iters', '3', '--skipUpdateRate', ...RUNS_4096],
    share: 0.12,
  },
  { name: 'page, page defaults', script: 'bench/page.ts', args: ['--json', '--backends', 'webgpu,wasm', '--seconds', '15', '--span', '5'], share: 0.17 },
  {
    name: 'page, 4096 runs',
    script: 'bench/page.ts',
    args: ['--json', '--backends', 'webgpu,wasm', '--seconds', '15', '--span', '2', ...RUNS_4096],
    share: 0.18,
  },
];

interface PartResult {
  name: string;
  command: string;
  ok: boolean;
  seconds: number;
  /** The part's JSON output when it finished. */
  result?: unknown;
  /** Why not, with the last lines of its stderr. */
  problem?: string;
}

/**
 * Built by `npm run bench:device:bundle` (scripts/device-bundle.ts), this script is one `.mjs` file with
 * each part's bundle beside it, for a machine without `node_modules` or `tsx`: it then runs those.
 */
const BUNDLED = import.meta.url.endsWith('.mjs');

/** How a part is started: its TypeScript with `tsx`, or its bundle beside this one. */
function partCommand(part: Part): string[] {
  if (!BUNDLED) return ['--import', 'tsx', part.script, ...part.args];
  return [join(dirname(fileURLToPath(import.meta.url)), `${basename(part.script, '.ts')}.mjs`), ...part.args];
}

/** The part's command as a reader would type it (the summary's `command`). */
const commandLine = (part: Part) => (BUNDLED ? `node ${partCommand(part).join(' ')}` : `tsx ${part.script} ${part.args.join(' ')}`);

/** Whether this copy can run `part`: a bundle carries no bundle of the page's part (it needs Chromium). */
const runnable = (part: Part) => !BUNDLED || existsSync(partCommand(part)[0]!);

/** Runs one part, killing it after `seconds`; its stdout must be one JSON object. */
function runPart(part: Part, seconds: number, env: NodeJS.ProcessEnv): Promise<PartResult> {
  const command = commandLine(part);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, partCommand(part), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      process.stderr.write(`  [${part.name}] ${String(d)}`);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL'); // the part's whole process group (Chromium included)
      } catch {
        child.kill('SIGKILL');
      }
    }, seconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const elapsed = (performance.now() - t0) / 1000;
      const tail = stderr.trim().split('\n').slice(-5).join('\n');
      if (timedOut)
        return resolve({
          name: part.name,
          command,
          ok: false,
          seconds: elapsed,
          problem: `stopped after its share of the budget, ${seconds.toFixed(0)} s; stderr ends:\n${tail}`,
        });
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve({ name: part.name, command, ok: true, seconds: elapsed, result: JSON.parse(stdout) });
      } catch (e) {
        resolve({ name: part.name, command, ok: false, seconds: elapsed, problem: `${e instanceof Error ? e.message : String(e)}; stderr ends:\n${tail}` });
      }
    });
  });
}

/** The adapter Dawn gives this process, as the parts will get it (they choose the same way). */
async function probeAdapter(): Promise<{ info: Record<string, unknown>; name: string; software: boolean; driver: string }> {
  await initBackend('webgpu', { strict: true });
  const adapter = await (globalThis as unknown as { navigator: { gpu: GPU } }).navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const raw = adapter.info;
  const info: Record<string, unknown> = {};
  for (const key of ['vendor', 'architecture', 'device', 'description', 'driver', 'backend', 'type', 'isFallbackAdapter'])
    if ((raw as unknown as Record<string, unknown>)[key] !== undefined) info[key] = (raw as unknown as Record<string, unknown>)[key];
  const driver = process.env.VK_ICD_FILENAMES ? `Vulkan ICD ${process.env.VK_ICD_FILENAMES}` : 'the system Vulkan loader and its ICDs';
  return { info, name: adapterDisplayName(raw), software: isSoftwareAdapter(raw), driver };
}

const slug = (name: string) =>
  name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const budget = flags.budget ?? 300;
  const out = flags.out ?? 'bench-device';
  const adapter = await probeAdapter();
  process.stderr.write(`bench:device: adapter ${adapter.name}; driver: ${adapter.driver}; info ${JSON.stringify(adapter.info)}\n`);
  if (adapter.software && !flags.allowSoftware) {
    process.stderr.write(
      `bench:device: refused: ${adapter.name} is a software adapter (it runs WebGPU on the CPU), so its figures are not a GPU's. ` +
        "Check the machine's Vulkan driver (docs/performance-device.md), or pass --allowSoftware to try the script anyway.\n",
    );
    return 2;
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/adapter.json`, `${JSON.stringify({ ...adapter, allowSoftware: flags.allowSoftware === true }, null, 1)}\n`);
  const env = { ...process.env };
  env.BEACON_CHROMIUM_FLAGS ??= CHROMIUM_GPU_FLAGS;
  const started = performance.now();
  const results: PartResult[] = [];
  // The budget is shared among the parts that can run here, so a bundle's left-out page parts leave
  // their time to the others.
  const runnableShare = PARTS.filter(runnable).reduce((sum, part) => sum + part.share, 0);
  let reserved = 0;
  for (const part of PARTS) {
    if (!runnable(part)) {
      results.push({
        name: part.name,
        command: commandLine(part),
        ok: false,
        seconds: 0,
        problem: `left out: no bundle of ${part.script} beside this one (the page needs Chromium and the built site, which the bundle does not carry: docs/performance-device.md)`,
      });
      continue;
    }
    const left = budget - (performance.now() - started) / 1000;
    // A part may use its own share plus whatever earlier parts left unused, never the later parts' shares.
    reserved += part.share / runnableShare;
    const allowed = Math.min(left, budget * reserved - (performance.now() - started) / 1000);
    if (allowed < 10) {
      results.push({
        name: part.name,
        command: commandLine(part),
        ok: false,
        seconds: 0,
        problem: 'skipped: the time budget was spent',
      });
      continue;
    }
    process.stderr.write(`bench:device: ${part.name} (up to ${allowed.toFixed(0)} s)\n`);
    const result = await runPart(part, allowed, env);
    results.push(result);
    const file = `${out}/${String(results.length).padStart(2, '0')}-${slug(part.name)}.json`;
    writeFileSync(file, `${JSON.stringify({ adapter: adapter.name, ...result }, null, 1)}\n`);
    process.stderr.write(`bench:device: ${part.name}: ${result.ok ? 'done' : 'failed'}, written to ${file}\n`);
  }
  const summary = {
    adapter: { name: adapter.name, software: adapter.software, driver: adapter.driver, info: adapter.info },
    machine: { platform: platform(), cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown' },
    drivers: {
      node: process.env.VK_ICD_FILENAMES
        ? `VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES} (set by the caller)`
        : 'the system Vulkan driver, SwiftShader only if none answers',
      chromiumFlags: env.BEACON_CHROMIUM_FLAGS,
    },
    budgetSeconds: budget,
    seconds: (performance.now() - started) / 1000,
    parts: results,
  };
  writeFileSync(`${out}/summary.json`, `${JSON.stringify(summary, null, 1)}\n`);
  console.log(JSON.stringify(summary, null, 1));
  return results.every((r) => r.ok) ? 0 : 1;
}

runCommand(main, USAGE);
