/**
 * The study's SVG writer: well-formed SVG (balanced tags, quoted attributes, escaped text, one root),
 * one group per series, labelled bands, and every study chart drawn from synthetic runs.
 */
import { describe, expect, it } from 'vitest';
import { studyFigures } from '../../src/study/charts.ts';
import { meanSd } from '../../src/study/summary.ts';
import { renderFigure, type Figure } from '../../src/study/svg.ts';
import { variantLabel, type VariantName } from '../../src/study/variants.ts';
import { build, COMPARED, fakeRun, PAPER } from './synthetic-runs.ts';

/** A strict-enough well-formedness check: balanced tags, quoted attributes, escaped text, one root. */
function checkWellFormed(svg: string): void {
  const body = svg.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  let pos = 0;
  for (const m of body.matchAll(/<[^>]*>/g)) {
    const between = body.slice(pos, m.index);
    expect(between, 'raw < or & in text').not.toMatch(/<|&(?!(amp|lt|gt|quot|apos|#\d+);)/);
    pos = m.index! + m[0].length;
    const tag = m[0];
    if (tag.startsWith('</')) {
      expect(stack.pop(), `closing ${tag}`).toBe(tag.slice(2, -1).trim());
      continue;
    }
    const inner = tag.slice(1, tag.endsWith('/>') ? -2 : -1);
    const name = /^[A-Za-z][\w:-]*/.exec(inner)?.[0];
    expect(name, `tag name in ${tag}`).toBeTruthy();
    const rest = inner.slice(name!.length);
    expect(rest, `attributes of ${tag.slice(0, 60)}`).toMatch(/^(\s+[A-Za-z_:][\w:.-]*="[^"<]*")*\s*$/);
    for (const v of rest.matchAll(/="([^"]*)"/g)) expect(v[1]).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
    if (stack.length === 0) roots++;
    if (!tag.endsWith('/>')) stack.push(name!);
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  expect(body.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

describe('SVG writer', () => {
  it('writes well-formed SVG with one group per series and labelled bands', () => {
    const fig: Figure = {
      title: 'success <& "quotes">',
      subtitle: 'line: mean over 3 seeds; shaded band: ± 1 sd over seeds',
      panels: [
        {
          kind: 'line',
          title: 'long',
          xLabel: 'iteration',
          yLabel: 'success',
          yDomain: [0, 1],
          percent: true,
          series: [
            { label: 'GRPO', color: '#d62728', x: [1, 2, 3, 4], mean: [0, 0.1, null, 0.3], sd: [0, 0.05, null, 0.1] },
            { label: 'BEACON', color: '#1f77b4', x: [1, 2, 3, 4], mean: [0.1, 0.5, 0.8, 0.9], sd: [0.02, 0.1, 0.05, 0.01] },
          ],
        },
        {
          kind: 'bar',
          title: 'gain',
          yLabel: 'gain',
          categories: ['short', 'long'],
          percent: true,
          series: [{ label: 'gridhouse', color: '#000', values: [-0.1, 2], errors: [0.05, null] }],
        },
        {
          kind: 'stack',
          title: 'mix',
          xLabel: 'iteration',
          yLabel: 'share',
          x: [1, 2],
          layers: [
            { label: 'full success', color: '#0a0', values: [0.2, 0.5] },
            { label: 'partial success', color: '#fa0', values: [0.3, 0.3] },
            { label: 'complete failure', color: '#ccc', values: [0.5, 0.2] },
          ],
        },
      ],
    };
    const svg = renderFigure(fig);
    checkWellFormed(svg);
    expect(svg).toContain('success &lt;&amp; &quot;quotes&quot;&gt;');
    for (const s of ['GRPO', 'BEACON', 'gridhouse', 'full success', 'partial success', 'complete failure'])
      expect(svg).toContain(`class="series" data-series="${s}"`);
    expect(svg.match(/class="band"/g)).toHaveLength(2);
    expect(svg).toContain('BEACON (mean ± 1 sd)');
    expect(svg).toContain('GRPO: ± 1 sd');
    // The GRPO line has a gap where its mean is undefined: two subpaths.
    const grpoLine = /data-series="GRPO"><path class="band"[^>]*><title>[^<]*<\/title><\/path><path class="line" d="([^"]*)"/.exec(svg);
    expect(grpoLine?.[1].match(/M/g)).toHaveLength(2);
  });

  it('draws every study chart from synthetic runs, every compared method in the success charts', () => {
    const figures = studyFigures(build(PAPER, 3), { gainFloor: 0.05, ablationHorizon: 'long' });
    expect(figures.map((f) => f.name).sort()).toEqual([
      'ablations-gridhouse',
      'ablations-texthouse',
      'cost',
      'outcome-mix-gridhouse',
      'outcome-mix-texthouse',
      'relative-gain',
      'signal',
      'success-gridhouse',
      'success-texthouse',
    ]);
    for (const f of figures) checkWellFormed(renderFigure(f.figure));
    const success = figures.find((f) => f.name === 'success-gridhouse')!.figure;
    expect(success.panels.map((p) => p.title)).toEqual(['short horizon', 'medium horizon', 'long horizon']);
    const long = success.panels[2];
    expect(long.kind === 'line' && long.series.map((x) => x.label)).toEqual(COMPARED.map(variantLabel));
    const gain = figures.find((f) => f.name === 'relative-gain')!.figure.panels[0];
    const final = (v: VariantName) =>
      meanSd(
        build(PAPER, 3, ['gridhouse'])
          .filter((r) => r.horizon === 'long' && r.variant === v)
          .map((r) => r.finalSuccess),
      ).mean!;
    const beacon = gain.kind === 'bar' ? gain.series.find((x) => x.label === 'BEACON')! : null;
    expect(beacon!.values[2]).toBeCloseTo((final('beacon') - final('grpo')) / final('grpo'), 12);
  });

  it('leaves the detector study’s arms out of study v3’s signal bars', () => {
    const runs = [...build(PAPER, 3, ['gridhouse']), fakeRun('gridhouse', 'long', 'beaconLoose', 1, { level: 0.5 })];
    const signal = studyFigures(runs, { gainFloor: 0.05, ablationHorizon: 'long' }).find((f) => f.name === 'signal')!.figure.panels[0];
    const labels = signal.kind === 'bar' ? signal.series.map((x) => x.label) : [];
    expect(labels).toContain('BEACON');
    expect(labels).not.toContain(variantLabel('beaconLoose'));
  });
});
