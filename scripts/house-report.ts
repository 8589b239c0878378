/**
 * The house's shape in figures (`npm run -s house`): source files over 400 lines, and folder pairs whose
 * imports run both ways (from dependency-cruiser's graph with the project's own options; a top-level
 * file of src/ counts as its own folder, and type-only imports count too).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'envs', 'cli', 'bench', 'test', 'scripts'];

interface Cruise {
  modules: { source: string; dependencies: { resolved: string; couldNotResolve: boolean }[] }[];
}

const tracked = execFileSync('git', ['ls-files', ...FOLDERS.map((f) => `${f}/*.ts`)], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
const long = tracked
  .map((f) => ({ f, lines: readFileSync(`${ROOT}/${f}`, 'utf8').split('\n').length - 1 }))
  .filter((x) => x.lines > 400)
  .sort((a, b) => b.lines - a.lines);

// Its exit code counts rule violations; the graph is on stdout either way.
const cruise = spawnSync(
  process.execPath,
  [`${ROOT}/node_modules/dependency-cruiser/bin/dependency-cruise.mjs`, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...FOLDERS],
  { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
);
if (!cruise.stdout) throw new Error(`dependency-cruiser printed nothing: ${cruise.stderr}`);
const graph = JSON.parse(cruise.stdout) as Cruise;
/** src/x/… and envs/x/… by their folder, src/config.ts by itself, cli/, bench/, test/ whole. */
const folderOf = (path: string) => {
  const parts = path.split('/');
  return parts[0] === 'src' || parts[0] === 'envs' ? parts.slice(0, 2).join('/') : parts[0];
};
const pairs = new Set<string>();
for (const m of graph.modules) {
  if (m.source.includes('node_modules')) continue;
  for (const d of m.dependencies) {
    if (d.couldNotResolve || d.resolved.includes('node_modules')) continue;
    const a = folderOf(m.source);
    const b = folderOf(d.resolved);
    if (a !== b) pairs.add(`${a} → ${b}`);
  }
}
const bothWays = [...pairs].filter((p) => {
  const [a, b] = p.split(' → ');
  return a < b && pairs.has(`${b} → ${a}`);
});

console.log(`files over 400 lines (${long.length}):`);
for (const x of long) console.log(`  ${String(x.lines).padStart(4)}  ${x.f}`);
console.log(`folder pairs importing both ways (${bothWays.length}):`);
for (const p of bothWays) console.log(`  ${p.replace(' → ', ' ↔ ')}`);
