/**
 * A typed array reused from call to call: it grows to the largest length asked of it and hands out views.
 *
 * Why: the update copies each minibatch's rows into fresh arrays of a megabyte or more. Allocated anew
 * every time, Chromium maps such arrays afresh, faults them in page by page and unmaps them again in the
 * garbage collector, which cost the page's training workers more than the copies (bench:page).
 */
type Typed = Float32Array | Int32Array | Uint8Array | Uint32Array;

export class ScratchArray<T extends Typed> {
  private store: T | null = null;

  constructor(private readonly make: (length: number) => T) {}

  /**
   * A view of `length` elements, holding whatever the last caller left: write every element before
   * reading. The view is valid until the next `take`.
   */
  take(length: number): T {
    if (!this.store || this.store.length < length) this.store = this.make(length);
    return this.store.subarray(0, length) as T;
  }
}
