import { describe, expect, it } from 'vitest';
import { readFloat32s, writeFloat32s } from '../../src/trainer/sealed-file.ts';

/** The little-endian float32 bytes of `values`, written one by one through a DataView (the reference). */
function referenceBytes(values: number[]): number[] {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return [...new Uint8Array(view.buffer)];
}

const VALUES = [0, -0, 1.5, -2.25, 3.4e38, 1e-45, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.1];

describe('float32 body helpers', () => {
  // Offset 0 takes the typed-array copy, offset 3 (unaligned) the per-value DataView path: both must
  // write the same little-endian bytes and read back the same values.
  for (const pad of [0, 3]) {
    it(`write and read little-endian float32 at byte offset ${pad}`, () => {
      const buffer = new ArrayBuffer(8 + pad + VALUES.length * 4);
      const body = new DataView(buffer, 4);
      writeFloat32s(body, pad, Float32Array.from(VALUES));
      expect([...new Uint8Array(buffer, 4 + pad, VALUES.length * 4)]).toEqual(referenceBytes(VALUES));
      expect(new Uint8Array(buffer, 0, 4).every((b) => b === 0)).toBe(true); // nothing written before the body

      const back = readFloat32s(body, pad, VALUES.length);
      expect([...back]).toEqual([...Float32Array.from(VALUES)]);
      expect(Object.is(back[1], -0)).toBe(true);
      // A copy, not a view: changing the bytes afterwards leaves the values read alone.
      new Uint8Array(buffer).fill(0xff);
      expect(back[2]).toBe(1.5);
    });
  }

  it('keeps NaN a NaN', () => {
    const body = new DataView(new ArrayBuffer(4));
    writeFloat32s(body, 0, [Number.NaN]);
    expect(Number.isNaN(readFloat32s(body, 0, 1)[0])).toBe(true);
  });
});
