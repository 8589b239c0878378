/**
 * The GPU memory an estimator owns, with a count of live buffers so tests can prove nothing leaks.
 *
 * Scratch buffers (intermediates between the kernels) are reused across calls and grow by powers of
 * two; the queue orders one call's writes after the previous call's reads, so reuse is safe. Output
 * buffers are lent to tfjs tensors created with `zeroCopy: true`, which tfjs never frees: each loan
 * ends when its tensor's data is gone, and the buffer then returns to a small free list.
 */

/** Scratch sizes are rounded up to a power of two (≥ 256 bytes) so batches of varying length share them. */
function roundedSize(bytes: number): number {
  return Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(1, bytes))));
}

/** Free output buffers kept for reuse; more than this are destroyed. */
const MAX_FREE_OUTPUTS = 4;

interface Loan {
  buffer: GPUBuffer;
  /** True once nothing uses the buffer any more. */
  ended: () => boolean;
}

export class GpuBufferPool {
  private readonly scratch = new Map<string, GPUBuffer>();
  private readonly freeOutputs: GPUBuffer[] = [];
  private readonly loans: Loan[] = [];
  private live = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
  ) {}

  /** Buffers currently allocated by this pool (scratch, free and lent). */
  get liveBuffers(): number {
    return this.live;
  }

  /** Output buffers currently lent to tensors. */
  get lentBuffers(): number {
    return this.loans.length;
  }

  private create(name: string, size: number, usage: number): GPUBuffer {
    this.live++;
    return this.device.createBuffer({ label: `${this.label} ${name}`, size, usage });
  }

  private destroyBuffer(buffer: GPUBuffer): void {
    buffer.destroy();
    this.live--;
  }

  /** The scratch buffer `name`, at least `bytes` long. */
  scratchBuffer(name: string, bytes: number, usage: number): GPUBuffer {
    const current = this.scratch.get(name);
    if (current && current.size >= bytes && current.usage === usage) return current;
    // Work already submitted keeps a destroyed buffer alive until it completes (WebGPU semantics).
    if (current) this.destroyBuffer(current);
    const buffer = this.create(name, roundedSize(bytes), usage);
    this.scratch.set(name, buffer);
    return buffer;
  }

  /**
   * An output buffer of exactly `bytes` (a multiple of 4), reused from the free list when one matches.
   * Exactly, because tfjs reads a zero-copy tensor back by its buffer's size, not its shape.
   */
  acquireOutput(bytes: number, usage: number): GPUBuffer {
    const i = this.freeOutputs.findIndex((b) => b.size === bytes && b.usage === usage);
    if (i >= 0) return this.freeOutputs.splice(i, 1)[0];
    return this.create('output', bytes, usage);
  }

  /** Lends `buffer` until `ended()` turns true (checked by `reclaim`). */
  lend(buffer: GPUBuffer, ended: () => boolean): void {
    this.loans.push({ buffer, ended });
  }

  /** Returns the buffers of ended loans to the free list. */
  reclaim(): void {
    for (let i = this.loans.length - 1; i >= 0; i--) {
      if (!this.loans[i].ended()) continue;
      this.freeOutputs.push(this.loans.splice(i, 1)[0].buffer);
    }
    while (this.freeOutputs.length > MAX_FREE_OUTPUTS) this.destroyBuffer(this.freeOutputs.shift()!);
  }

  /** Destroys every buffer, lent ones included (their tensors must be disposed by now). */
  destroy(): void {
    for (const b of this.scratch.values()) this.destroyBuffer(b);
    for (const b of this.freeOutputs) this.destroyBuffer(b);
    for (const { buffer } of this.loans) this.destroyBuffer(buffer);
    this.scratch.clear();
    this.freeOutputs.length = 0;
    this.loans.length = 0;
  }
}
