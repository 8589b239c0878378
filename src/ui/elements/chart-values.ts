/**
 * The data side of <metric-chart> (metric-chart.ts): what the legend and the summary say about the
 * columns, and the columns as plotted (cumulative when stacked). Pure functions of the chart's columns;
 * the drawing lives in chart-drawing.ts.
 */

export type ChartData = ArrayLike<number | null>[];

/** The x axis of a chart: completed iterations (whole numbers), or environment steps played so far. */
export type ChartX = 'iterations' | 'env steps';

/** Column `col`'s value at `cursor`, or without a cursor its latest value (one method may lag by one). */
export function shownValue(data: ChartData, col: number, cursor: number | null): number | null | undefined {
  const c = data[col];
  if (!c) return undefined;
  if (cursor !== null) return c[cursor];
  for (let j = c.length - 1; j >= 0; j--) if (c[j] !== null && c[j] !== undefined) return c[j];
  return null;
}

/** A value as the legend shows it: a percentage, or a number with sensible digits; '–' for none. */
export function formatValue(v: number | null | undefined, percent: boolean): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (percent) return `${(v * 100).toFixed(1)}%`;
  const a = Math.abs(v);
  return a !== 0 && (a < 0.01 || a >= 1e5) ? v.toExponential(2) : v.toFixed(a < 10 ? 3 : 1);
}

/** An x value as the legend and the summary name it: "it 12" or "48.5k steps". */
export function formatX(x: number, axis: ChartX): string {
  return axis === 'iterations' ? `it ${x}` : `${compactNumber(x)} steps`;
}

/** The index of the last non-empty value of `col`, or null. */
export function lastDefined(col: ArrayLike<number | null> | undefined): number | null {
  if (!col) return null;
  for (let j = col.length - 1; j >= 0; j--) if (col[j] !== null && col[j] !== undefined) return j;
  return null;
}

/** The last x index of the data, or null when there is none. */
export function lastIndex(data: ChartData): number | null {
  const n = data[0]?.length ?? 0;
  return n > 0 ? n - 1 : null;
}

/** The columns as plotted: unchanged, or running sums of the y columns when the chart is stacked. */
export function plottedColumns(data: ChartData, stacked: boolean): ChartData {
  if (!stacked) return data;
  const [xs, ...ys] = data;
  const out: (number | null)[][] = [];
  let prev: (number | null)[] | null = null;
  for (const col of ys) {
    const cum: (number | null)[] = Array.from({ length: xs.length }, (_, i) => {
      const v = col[i];
      const p: number | null = prev ? prev[i] : 0;
      return v === null || v === undefined || p === null ? null : v + p;
    });
    out.push(cum);
    prev = cum;
  }
  return [xs, ...out];
}

/** 1.2k, 48.5k, 3.1M: an axis tick or an x value in few characters. */
export function compactNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1000) return `${+(v / 1000).toFixed(1)}k`;
  return String(+v.toFixed(a < 1 ? 2 : 1));
}
