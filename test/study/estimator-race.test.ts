/**
 * `npm run study -- --estimator FILE`: your estimator runs in the study's cells on the same seeds,
 * budget and configs as the built-in methods (only the method differs), flags that do not fit are
 * refused, and a failing estimator exits 2 with its message.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimatorSpecs } from '../../cli/study-estimator.ts';
import { parseStudyFlags } from '../../cli/study-flags.ts';
import { UsageError } from '../../cli/flags.ts';
import { GRPO_TEMPLATE } from '../../src/estimator/templates.ts';
import { buildMatrix, seedList, runConfig } from '../../src/study/matrix.ts';
import { FULL_PROFILE, QUICK_PROFILE } from '../../src/study/profile.ts';
import { runCli } from '../../scripts/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'study-estimator-'));
const file = (name: string, source: string) => {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
};

describe('the study race of your estimator', () => {
  it('uses the cells, seeds and configs of the built-in methods, with method custom', () => {
    for (const profile of [FULL_PROFILE, QUICK_PROFILE]) {
      const grpo = buildMatrix(profile, seedList(profile, 3)).filter((s) => s.variant === 'grpo');
      const custom = estimatorSpecs(profile, 3);
      expect(custom.map((s) => [s.env, s.horizon, s.seed])).toEqual(grpo.map((s) => [s.env, s.horizon, s.seed]));
      for (const [i, s] of custom.entries()) expect(runConfig(s, profile.budget)).toEqual({ ...runConfig(grpo[i], profile.budget), method: 'custom' });
    }
  });

  it('takes only the flags that fit', () => {
    expect(parseStudyFlags(['--estimator', 'x.js', '--estimatorTimeout', '3', '--quick'])).toMatchObject({
      estimator: { path: 'x.js', timeoutS: 3 },
      profile: QUICK_PROFILE,
    });
    expect(parseStudyFlags([])).toMatchObject({ estimator: null });
    expect(() => parseStudyFlags(['--estimator', 'x.js', '--shard', '1/2'])).toThrow(UsageError);
    expect(() => parseStudyFlags(['--estimatorTimeout', '3'])).toThrow(/--estimatorTimeout needs --estimator FILE/);
  });

  it('races the GRPO starter in the quick cells, and exits 2 with the message of an estimator that fails', async () => {
    const ok = await runCli('cli/study.ts', ['--quick', '--seeds', '1', '--workers', '1', '--estimator', file('grpo.js', GRPO_TEMPLATE)]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/6 runs \(gridhouse, texthouse, shop × short, long × seeds 1–1\)/);
    expect(ok.stdout).toMatch(/^\| gridhouse \| short \| \d+% · 60% at /m);
    expect(ok.stdout).toMatch(/^wrote docs\/results\/quick\/estimators\/[0-9a-f]{12}\.json$/m);
    const bad = await runCli('cli/study.ts', [
      '--quick',
      '--seeds',
      '1',
      '--workers',
      '1',
      '--estimator',
      file('throws.js', 'export default function estimate() {\n  throw new Error("nope");\n}\n'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/gridhouse-long-custom-s1: estimate\(\) threw at line 2: Error: nope/);
    expect(bad.stderr).not.toMatch(/^\s+at /m);
  }, 240_000);
});
