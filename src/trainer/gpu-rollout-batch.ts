/**
 * Several seeds' GPU rollouts played as one (docs/maths.md §4 for what a rollout is): the seeds of one
 * method, each an independent training run with its own trainer and GpuRolloutCollector, send their
 * next rollouts here (`arm`, then each collector's `collect` joins), and one whole-episode dispatch
 * plays all their runs, a workgroup per run, seed after seed (shaders/lib/rollout.wgsl's seed axis).
 *
 * Nothing of one seed reads another seed's data: each seed's weights lie at its own base in one flat
 * buffer (copied from its variables on the GPU, no dispatch), its draw key and starting records are its
 * own, its dictionary of candidate rows and published embeddings (which depend on its weights) is its
 * own part of the joined dictionary, and its records are its own block. The dictionary's numbering
 * and the final records' pass take every seed too, a workgroup per seed, each on its own blocks. The
 * blocks are then copied into each seed's own collector buffers, where the rest of its iteration (the
 * advantages, the update and the metrics in its trainer) finds them as if its seed had played alone,
 * so a seed batched gives the records it gives alone, bit for bit. A batched rollout is 3 dispatches,
 * one submit and one read-back whatever the number of seeds (3, 1 and 1 per seed one after the other).
 */
import { clearDictionary } from '../gpu/candidate-dictionary.ts';
import { gatherWeights } from '../gpu/policy-logits.ts';
import { joinSeedTables, joinsSeedTables } from '../gpu/seed-tables.ts';
import type { GpuRolloutCollector, RolloutBatch } from './gpu-rollout.ts';
import {
  type CollectorParts,
  computePass,
  episodeUniforms,
  type NumberingBuffers,
  type ReadLayout,
  recordNumbering,
  type RolloutStart,
  submitChecked,
  writeStarts,
} from './gpu-rollout-parts.ts';
import { dictionarySize, keptBytes, recordSizes, stepBufferSizes } from './gpu-rollout-sizes.ts';
import { Rendezvous } from './rendezvous.ts';
import type { Rollout } from './rollout.ts';
import { COPY_DST, COPY_SRC, MAP_READ, STORAGE } from '../gpu/buffer-usage.ts';

interface Joined {
  collector: GpuRolloutCollector;
  start: RolloutStart;
}

/**
 * The joined bindings by name: each seed's block of `bytes` in turn (4: none kept), or, for the
 * environment's step buffers, which the runs index, the whole binding's bytes.
 */
type SeedBuffers = Record<string, { buffer: GPUBuffer; bytes: number }>;

export class SeedRolloutBatch implements RolloutBatch {
  /** Where the seeds' rollouts meet (rendezvous.ts), in seed order. */
  private readonly rendezvous = new Rendezvous<Joined, Rollout>((round) => this.playRound(round));
  private buffers: { device: GPUDevice; seeds: number; sizes: string; byName: SeedBuffers; staging: GPUBuffer } | null = null;

  private constructor(private readonly collectors: readonly GpuRolloutCollector[]) {
    for (const c of collectors) c.batch = this;
  }

  /**
   * The batch of `collectors` (one per seed, the same environment and shape), or the reason it cannot be
   * made: a table that does not join, or a joined buffer over the device's limits (the seeds then play
   * one after the other, as before).
   */
  static create(collectors: readonly GpuRolloutCollector[], device: GPUDevice): SeedRolloutBatch | string {
    const [first] = collectors;
    const [[table]] = first.kernel.episodeKernel.spec.storage; // the environment's table, bound first (episode-rollout.ts)
    if (!joinsSeedTables(table)) return `the ${table} table of ${first.env.name} does not join across seeds`;
    const K = collectors.length;
    const { env } = first;
    const H = first.policy.shape.hiddenSize;
    const records = recordSizes(env);
    const kept = (bytes: number) => (bytes > 4 ? K * bytes : 4);
    const joined: Record<string, number> = {
      ...stepBufferSizes(env, H, first.kernel.recordWords, K),
      actionRecord: K * records.actions,
      logProbRecord: K * records.logProbs,
      obsRecord: kept(keptBytes(4 * env.maxSteps * env.batchSize * env.obsDim, device)),
      candidateTable: kept(dictionarySize(env, H, device)),
    };
    for (const [name, bytes] of Object.entries(joined))
      if (keptBytes(bytes, device) === 4 && bytes > 4) return `the seeds' joined ${name} buffer (${bytes} bytes) is over the device's binding limit`;
    return new SeedRolloutBatch(collectors);
  }

  get armed(): boolean {
    return this.rendezvous.armed;
  }

  /** Rollouts played batched (tests read it). */
  get rounds(): number {
    return this.rendezvous.rounds;
  }

  /** The next `count` rollouts of the batch's collectors play together. */
  arm(count: number): void {
    this.rendezvous.arm(count);
  }

  /** A seed's step ended without a rollout (it threw first): the others play without it. */
  leave(collector: GpuRolloutCollector): void {
    this.rendezvous.leave(this.collectors.indexOf(collector));
  }

  join(collector: GpuRolloutCollector, start: RolloutStart): Promise<Rollout> {
    return this.rendezvous.join(this.collectors.indexOf(collector), { collector, start });
  }

  private async playRound(round: readonly Joined[]): Promise<Rollout[]> {
    const parts = round.map((j) => j.collector.parts);
    const { env, kernel, device, runner } = parts[0];
    const K = round.length;
    const B = env.batchSize;
    const W = kernel.recordWords;
    const { byName, staging } = this.allocate(parts, round);
    const table = joinSeedTables(
      round[0].start.table.name,
      round.map((j) => j.start.table.data),
    );
    const tableBuffer = device.createBuffer({ label: 'seed batch table', size: Math.max(4, table.data.byteLength), usage: STORAGE | COPY_DST });
    try {
      device.queue.writeBuffer(tableBuffer, 0, table.data);
      writeStarts(
        device,
        byName.episodes.buffer,
        K * B,
        W,
        joinStarts(round, B, W, table.field, table.shift),
        round.map((j) => j.start.key),
      );
      const reads: { base: number; layout: ReadLayout }[] = [];
      await submitChecked(device, 'gpu rollout', (encoder) => {
        const pairs = env.maxSteps * B * env.maxActions;
        parts.forEach((p, s) => {
          gatherWeights(encoder, p.policy.variables, p.buffers.weights);
          encoder.copyBufferToBuffer(p.buffers.weights, 0, byName.weights.buffer, s * byName.weights.bytes, byName.weights.bytes);
          if (byName.candidateTable.bytes > 4)
            clearDictionary(encoder, byName.candidateTable.buffer, env.actionDim, pairs, s * byName.candidateTable.bytes, byName.candidateTable.bytes);
        });
        const bindings = { ...Object.fromEntries(Object.entries(byName).map(([n, b]) => [n, b.buffer])), [round[0].start.table.name]: tableBuffer };
        const group = runner.prepare(bindings, episodeUniforms(env, kernel, parts[0].policy.shape.hiddenSize, K));
        computePass(encoder, (p) => runner.record(p, group, K * B));
        // Every seed's dictionary numbered and final records gathered, a workgroup per seed in each pass.
        const joined = (name: string) => byName[name].buffer;
        const numbered: NumberingBuffers = {
          episodes: joined('episodes'),
          table: joined('candidateTable'),
          features: joined('features'),
          finals: joined('finals'),
          runOffsets: joined('runOffsets'),
          logProbs: joined('logProbRecord'),
          actions: joined('actionRecord'),
          sample: joined('sample'),
          hostFinals: joined('hostFinals'),
        };
        recordNumbering(encoder, parts[0], env, kernel, round[0].start.sample, numbered, K);
        // Each seed's block into its own collector's buffers, where its trainer reads them: the records,
        // the dictionary and its rows, the final records, the run offsets, the sample.
        parts.forEach((p, s) => {
          const own: [string, GPUBuffer][] = [
            ['actionRecord', p.records.actions],
            ['logProbRecord', p.records.logProbs],
            ['obsRecord', p.obsRecord],
            ['candidateTable', p.dictionary.table],
            ['features', p.numbered.features],
            ['finals', p.numbered.finals],
            ['runOffsets', p.numbered.runOffsets],
            ['sample', p.numbered.sample],
            ['hostFinals', p.numbered.hostFinals],
          ];
          for (const [name, target] of own) {
            const { bytes } = byName[name];
            if (bytes > 4) encoder.copyBufferToBuffer(byName[name].buffer, s * bytes, target, 0, bytes);
          }
        });
        let base = 0;
        round.forEach((j) => {
          const layout = j.collector.recordReadBack(encoder, j.start, staging, base);
          reads.push({ base, layout });
          base += align8(layout.bytes);
        });
      });
      const last = reads[reads.length - 1];
      const total = last.base + align8(last.layout.bytes);
      await staging.mapAsync(MAP_READ, 0, total);
      let bytes: ArrayBuffer;
      try {
        bytes = staging.getMappedRange(0, total).slice(0);
      } finally {
        staging.unmap();
      }
      const out: Rollout[] = [];
      for (const [s, j] of round.entries())
        out.push(await j.collector.finish(j.start, bytes.slice(reads[s].base, reads[s].base + reads[s].layout.bytes), reads[s].layout));
      return out;
    } finally {
      tableBuffer.destroy();
    }
  }

  /**
   * The joined bindings for `round`'s seeds, made again when the device, the number of seeds or a
   * seed's buffer sizes change (a race whose batch was resized).
   */
  private allocate(parts: readonly CollectorParts[], round: readonly Joined[]) {
    const [p] = parts;
    const { device } = p;
    const K = parts.length;
    const perSeed: Record<string, number> = {
      weights: p.buffers.weights.size,
      actionRecord: p.records.actions.size,
      logProbRecord: p.records.logProbs.size,
      obsRecord: p.obsRecord.size,
      candidateTable: p.dictionary.table.size,
      features: p.numbered.features.size,
      finals: p.numbered.finals.size,
      runOffsets: p.numbered.runOffsets.size,
      sample: p.numbered.sample.size,
      hostFinals: p.numbered.hostFinals.size,
    };
    const shared = stepBufferSizes(p.env, p.policy.shape.hiddenSize, p.kernel.recordWords, K);
    const stagingBytes = round.reduce((n, j) => n + align8(j.collector.readBackBytes), 0);
    const sizes = JSON.stringify([perSeed, shared, stagingBytes]);
    if (this.buffers && (this.buffers.device !== device || this.buffers.seeds !== K || this.buffers.sizes !== sizes)) this.release();
    if (!this.buffers) {
      const io = STORAGE | COPY_SRC | COPY_DST;
      const byName: SeedBuffers = {};
      for (const [name, bytes] of Object.entries(perSeed))
        byName[name] = { buffer: device.createBuffer({ label: `seed batch ${name}`, size: bytes > 4 ? K * bytes : 4, usage: io }), bytes };
      for (const name of ['episodes', 'mask', 'obs', 'actionFeatures'])
        byName[name] = { buffer: device.createBuffer({ label: `seed batch ${name}`, size: shared[name], usage: io }), bytes: shared[name] };
      const staging = device.createBuffer({ label: 'seed batch read-back', size: stagingBytes, usage: MAP_READ | COPY_DST });
      this.buffers = { device, seeds: K, sizes, byName, staging };
    }
    return this.buffers;
  }

  /** GPU buffers the batch holds (tests check that it does not grow). */
  get liveBuffers(): number {
    return this.buffers ? Object.keys(this.buffers.byName).length + 1 : 0;
  }

  private release(): void {
    if (!this.buffers) return;
    for (const { buffer } of Object.values(this.buffers.byName)) buffer.destroy();
    this.buffers.staging.destroy();
    this.buffers = null;
  }

  /** Lets go of the joined buffers (a race that ended); the next round makes them again. */
  trim(): void {
    this.release();
  }

  dispose(): void {
    this.release();
    for (const c of this.collectors) if (c.batch === this) c.batch = null;
  }
}

function align8(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

/**
 * The seeds' starting records joined (gpu-rollout-parts.ts `writeStarts`): every run's index into the
 * reset records, seed after seed, each seed's shifted past the records of the seeds before it, then
 * every seed's reset records, their table field (`field`, null: none) shifted to the seed's part of
 * the joined table.
 */
function joinStarts(round: readonly Joined[], B: number, W: number, field: number | null, shift: readonly number[]): Uint32Array {
  const counts = round.map((j) => (j.start.starts.length - B) / W);
  const total = counts.reduce((a, b) => a + b, 0);
  const out = new Uint32Array(round.length * B + total * W);
  let before = 0;
  round.forEach((j, s) => {
    const { starts } = j.start;
    for (let b = 0; b < B; b++) out[s * B + b] = starts[b] + before;
    const records = out.subarray(round.length * B + before * W, round.length * B + (before + counts[s]) * W);
    records.set(starts.subarray(B));
    if (field !== null) for (let r = 0; r < counts[s]; r++) records[r * W + field] += shift[s];
    before += counts[s];
  });
  return out;
}
