/**
 * Training progress on stderr: a one-line bar redrawn in place on a terminal, plain lines (every
 * tenth iteration and the last) when stderr is a file or a pipe.
 */
import type { IterationRecord } from '../src/trainer/iteration-record.ts';

/** `from`: the iteration a resumed run starts at (the rate and the ETA count only this process's). */
export function progressReporter(total: number, stream: NodeJS.WriteStream, from = 0) {
  const started = performance.now();
  const tty = stream.isTTY === true;
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  return {
    update(r: IterationRecord) {
      const elapsed = (performance.now() - started) / 1000;
      const eta = (elapsed / Math.max(1, r.iteration - from)) * (total - r.iteration);
      const text =
        `${r.method} ${r.iteration}/${total} success ${pct(r.success)} partial ${pct(r.partial)} ` +
        `loss ${r.policyLoss.toFixed(4)} ${(r.ms.rollout + r.ms.advantage + r.ms.update).toFixed(0)} ms/it eta ${eta.toFixed(0)} s`;
      if (tty) {
        const width = 24;
        const filled = Math.round((width * r.iteration) / total);
        stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}\x1b[K`);
      } else if (r.iteration % 10 === 0 || r.iteration === total) {
        stream.write(`${text}\n`);
      }
    },
    done() {
      if (tty) stream.write('\n');
    },
  };
}
