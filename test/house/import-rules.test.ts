/**
 * The import rules of .dependency-cruiser.cjs (`npm run deps`, inside `npm test`) fail a wrong import
 * with the rule's name: run with the project's own rules and options over a small tree
 * (layers-fixture/) that breaks three of them, one through another module.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: object[]; options: Record<string, unknown> };
const FIXTURE = fileURLToPath(new URL('./layers-fixture/', import.meta.url));

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

describe('import rules', () => {
  it('name the rule a wrong import breaks, also through another module', async () => {
    const result = await cruise(['src', 'bench', 'test'], {
      ...config.options,
      baseDir: FIXTURE,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      outputType: 'json',
    } as never);
    const output = JSON.parse(result.output as string) as { summary: { violations: Violation[] } };
    const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'bench-not-test: bench/run.ts → test/helper.ts',
      'core-loads-no-runtime: src/metrics/helper.ts → src/ui/view.ts',
      'core-loads-no-runtime: src/metrics/leak.ts → src/ui/view.ts',
      'worker-not-page: src/worker/job.ts → src/page/state.ts',
    ]);
  });
});
