/**
 * The GPU memory an estimator owns, with a count of live buffers so tests can prove nothing leaks.
 *
 * Scratch buffers (intermediates between the kernels) are reused across calls and grow by powers of
 * two; the queue orders one call's writes after the previous call's reads, so reuse is safe. They are
 * bound whole, so the rounding stops at the device's binding limit: a request the limits admit
 * (the refusals check exact bytes, e.g. fused-ppo-batch.ts) gets a buffer they admit too. A batch
 * that shrinks to well under a buffer gets a smaller one, and `trim` lets the largest go when the
 * batch that needed them is over. Output buffers are lent to tfjs tensors created with
 * `zeroCopy: true`, which tfjs never frees: each loan ends when its tensor's data is gone, and the
 * buffer then returns to a small free list, where it waits for a request of its exact size; a request
 * of another size lets the free ones of its usage go.
 */

/** The most bytes one buffer may have and still be bound whole as storage on a device with `limits`. */
export function bindableBytes(limits: Pick<GPUSupportedLimits, 'maxStorageBufferBindingSize' | 'maxBufferSize'>): number {
  return 4 * Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / 4);
}

/**
 * The size of the scratch buffer made for a request of `bytes`: rounded up to a power of two (≥ 256
 * bytes) so batches of varying length share it, but never over `cap` (bindableBytes) when the request
 * itself is not: limits need not be powers of two (2^31 − 4 is common), and a rounded buffer over them
 * would fail validation where the exact request passed the refusal's check.
 */
export function scratchBytes(bytes: number, cap: number): number {
  const rounded = Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(1, bytes))));
  return bytes <= cap ? Math.min(rounded, cap) : rounded;
}

/** A scratch buffer more than this many times the size a request rounds to is replaced by a smaller one. */
const SHRINK_FACTOR = 4;

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

  /** The largest scratch buffer the device binds whole (bindableBytes). */
  private readonly cap: number;

  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
  ) {
    this.cap = bindableBytes(device.limits);
  }

  /** Bytes of the buffers this pool holds now (scratch, free and lent). */
  get liveBytes(): number {
    let sum = 0;
    for (const b of this.scratch.values()) sum += b.size;
    for (const b of this.freeOutputs) sum += b.size;
    for (const { buffer } of this.loans) sum += buffer.size;
    return sum;
  }

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

  /**
   * The scratch buffer `name`, at least `bytes` long; a new, smaller one where the one held is over
   * SHRINK_FACTOR times what the request rounds to (the batch shrank: its memory goes back).
   */
  scratchBuffer(name: string, bytes: number, usage: number): GPUBuffer {
    const current = this.scratch.get(name);
    const size = scratchBytes(bytes, this.cap);
    if (current && current.size >= bytes && current.size <= SHRINK_FACTOR * size && current.usage === usage) return current;
    // Work already submitted keeps a destroyed buffer alive until it completes (WebGPU semantics).
    if (current) this.destroyBuffer(current);
    const buffer = this.create(name, size, usage);
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
    // None fits: the batch's size moved on (episodes end at varying steps), and a free output of this
    // usage would only wait for a batch of exactly its old size: it goes, so the memory stays flat.
    for (let j = this.freeOutputs.length - 1; j >= 0; j--) if (this.freeOutputs[j].usage === usage) this.destroyBuffer(this.freeOutputs.splice(j, 1)[0]);
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

  /**
   * Lets go of what the next call would make again: the scratch buffers and the free outputs, those
   * of ended loans included (lent ones stay with their tensors). For when the batch that needed them
   * is over; the pool stays usable.
   */
  trim(): void {
    this.reclaim();
    for (const b of this.scratch.values()) this.destroyBuffer(b);
    for (const b of this.freeOutputs) this.destroyBuffer(b);
    this.scratch.clear();
    this.freeOutputs.length = 0;
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
