/**
 * `npm run bench:device:bundle [-- --out DIR --carry]`: bench:device for a machine that reaches no
 * registry (no `npm ci`, no tsx), in DIR (default .device/, ignored by git), within a device machine's
 * 64 MiB (docs/performance-device.md):
 * - bench/device.ts and the parts it runs in Node (bench/gpu.ts, bench/train.ts) bundled one file each,
 *   tfjs included; bench/device.ts run from its bundle starts the parts' bundles beside it;
 * - Dawn's addon for linux-x64 in the layout `import 'webgpu'` expects (left out of the bundles: a native
 *   addon cannot be bundled);
 * - tfjs's wasm binaries beside the bundles (tfjs-backend-wasm finds them through `__dirname`, which the
 *   banner defines as the bundle's folder).
 * The shaders are read from the repo's shaders/ (src/gpu/shaders-node.ts), which travels with the
 * working tree. With `--carry`, packed to travel: Dawn's addon xz-compressed and this machine's Node
 * binary beside it (xz too, for a machine without Node); unpack both there before running.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { build, type Plugin } from 'esbuild';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';

const FLAGS = {
  out: { kind: 'string', doc: 'folder to write (default .device)' },
  carry: { kind: 'switch', doc: "compress Dawn's addon and add this machine's Node binary, xz-compressed, to carry to a device machine" },
} as const;
const USAGE = `usage: npm run bench:device:bundle [-- --out DIR --carry]\n${flagsHelp(FLAGS)}`;

const PARTS = ['device', 'gpu', 'train'];
const BANNER = [
  "import{createRequire as __bundleRequire}from'module';",
  "import{fileURLToPath as __bundlePath}from'url';",
  "import{dirname as __bundleDir}from'path';",
  'const require=__bundleRequire(import.meta.url);',
  'const __filename=__bundlePath(import.meta.url);',
  'const __dirname=__bundleDir(__filename);',
].join('');

/**
 * cli/register-gradients.ts loads tfjs's CommonJS build through `createRequire`, which a bundler cannot
 * follow; in the bundle the same module is imported, so it travels inside the bundle.
 */
const bundledGradients: Plugin = {
  name: 'bundled-gradients',
  setup(b) {
    b.onLoad({ filter: /cli[\\/]register-gradients\.ts$/ }, () => ({ contents: "import '@tensorflow/tfjs';", loader: 'ts' }));
  },
};

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = flags.out ?? '.device';
  rmSync(`${out}/bench`, { recursive: true, force: true });
  rmSync(`${out}/node_modules`, { recursive: true, force: true });
  mkdirSync(`${out}/bench`, { recursive: true });
  for (const part of PARTS)
    await build({
      entryPoints: [`bench/${part}.ts`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: `${out}/bench/${part}.mjs`,
      external: ['webgpu'],
      banner: { js: BANNER },
      plugins: [bundledGradients],
      // Whitespace and syntax only: names stay, so a stack trace from a device machine still reads.
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'error',
    });
  const wasmDir = 'node_modules/@tensorflow/tfjs-backend-wasm/dist';
  for (const file of readdirSync(wasmDir).filter((f) => f.endsWith('.wasm'))) copyFileSync(`${wasmDir}/${file}`, `${out}/bench/${file}`);
  const dawn = `${out}/node_modules/webgpu/dist/linux-x64`;
  mkdirSync(dawn, { recursive: true });
  for (const file of ['package.json', 'index.js']) copyFileSync(`node_modules/webgpu/${file}`, `${out}/node_modules/webgpu/${file}`);
  copyFileSync('node_modules/webgpu/dist/linux-x64/dawn.node', `${dawn}/dawn.node`);
  if (flags.carry) {
    execFileSync('xz', ['-9', '-T0', '-f', `${dawn}/dawn.node`]);
    writeFileSync(`${out}/node.xz`, execFileSync('xz', ['-9', '-T0', '-c', process.execPath], { maxBuffer: 1 << 30 }));
  }
  process.stdout.write(`${execFileSync('du', ['-sh', out]).toString()}`);
  return 0;
}

runCommand(main, USAGE);
