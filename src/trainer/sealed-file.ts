/**
 * The sealed container shared by Beacon Live's binary files (checkpoint.ts's checkpoints, the page's run
 * files in src/page/run-file.ts): a fixed preamble, a UTF-8 JSON header and a binary body, checksummed
 * with SHA-256. One implementation, so both formats check their bytes the same way and word their
 * failures the same way.
 *
 * Layout (all integers little-endian):
 *
 *   0   8 bytes   magic (8 ASCII characters naming the format)
 *   8   u32       schema version of the format
 *   12  u32       header length H in bytes (a multiple of 4, so the body is 4-byte aligned)
 *   16  u32       body length B in bytes
 *   20  32 bytes  SHA-256 of bytes [0, 20) followed by bytes [52, 52 + H + B)
 *   52  H bytes   header: UTF-8 JSON (space-padded to a multiple of 4 bytes)
 *   52+H B bytes  body
 *
 * Only standard web APIs are used (TextEncoder, DataView, crypto.subtle): the same code runs in Node,
 * the page and its workers.
 */

export const PREAMBLE = 52;
const DIGEST_AT = 20;

/** How a format names itself in messages, and its magic and schema. */
export interface SealedFormat {
  /** 8 ASCII characters. */
  magic: string;
  schema: number;
  /** The noun in messages: "checkpoint", "run file". */
  noun: string;
  /** The format's error class, so callers catch their own. */
  error: new (
    message: string,
  ) => Error;
}

export async function sha256(...chunks: Uint8Array[]): Promise<Uint8Array> {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

/**
 * The sealed bytes of `headerJson` and a body of `bodyLength` bytes, which `writeBody` fills in place
 * (a view of exactly those bytes), before the checksum is taken.
 */
export async function seal(format: SealedFormat, headerJson: string, bodyLength: number, writeBody: (body: DataView) => void): Promise<ArrayBuffer> {
  let json = headerJson;
  json += ' '.repeat((4 - (new TextEncoder().encode(json).length % 4)) % 4);
  const headerBytes = new TextEncoder().encode(json);
  const bytes = new Uint8Array(PREAMBLE + headerBytes.length + bodyLength);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(format.magic), 0);
  view.setUint32(8, format.schema, true);
  view.setUint32(12, headerBytes.length, true);
  view.setUint32(16, bodyLength, true);
  bytes.set(headerBytes, PREAMBLE);
  writeBody(new DataView(bytes.buffer, PREAMBLE + headerBytes.length, bodyLength));
  bytes.set(await sha256(bytes.subarray(0, DIGEST_AT), bytes.subarray(PREAMBLE)), DIGEST_AT);
  return bytes.buffer;
}

/** Whether this machine stores numbers little-endian, as the body does (every browser platform in use). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Writes `values` as little-endian float32 at byte `at` of `body`. On a little-endian machine with an
 * aligned offset this is one typed-array copy: a per-value DataView loop is slow, and in Chromium its
 * hot inner loop was re-optimised and thrown away on every checkpoint, keeping the compiler threads busy.
 */
export function writeFloat32s(body: DataView, at: number, values: ArrayLike<number>): void {
  if (LITTLE_ENDIAN && (body.byteOffset + at) % 4 === 0) {
    new Float32Array(body.buffer, body.byteOffset + at, values.length).set(values);
    return;
  }
  for (let i = 0; i < values.length; i++) body.setFloat32(at + i * 4, values[i], true);
}

/** `length` little-endian float32 values from byte `at` of `body`, as a new array (see writeFloat32s). */
export function readFloat32s(body: DataView, at: number, length: number): Float32Array {
  if (LITTLE_ENDIAN && (body.byteOffset + at) % 4 === 0) return new Float32Array(body.buffer.slice(body.byteOffset + at, body.byteOffset + at + length * 4));
  const values = new Float32Array(length);
  for (let i = 0; i < length; i++) values[i] = body.getFloat32(at + i * 4, true);
  return values;
}

/**
 * The parsed header and a view of the body of sealed bytes. Checks, in this order, and names the first
 * failure: the length of the preamble, the magic, the schema version, the total length (truncated or
 * trailing bytes), the checksum, then that the header is UTF-8 JSON. `reviver` is JSON.parse's.
 */
export async function unseal(
  format: SealedFormat,
  buffer: ArrayBuffer,
  reviver?: (key: string, value: unknown) => unknown,
): Promise<{ header: unknown; body: DataView }> {
  const fail = (message: string): never => {
    throw new format.error(message);
  };
  const bytes = new Uint8Array(buffer);
  const article = /^[aeiou]/i.test(format.noun) ? 'an' : 'a';
  if (bytes.length < PREAMBLE) fail(`truncated: ${bytes.length} bytes, fewer than the ${PREAMBLE}-byte preamble of ${article} ${format.noun}`);
  if (new TextDecoder().decode(bytes.subarray(0, 8)) !== format.magic) fail(`not a Beacon Live ${format.noun}: it does not start with "${format.magic}"`);
  const view = new DataView(buffer);
  const schema = view.getUint32(8, true);
  if (schema !== format.schema) fail(`schema version ${schema}; this build reads ${format.noun}s of schema version ${format.schema} only`);
  const headerLength = view.getUint32(12, true);
  const bodyLength = view.getUint32(16, true);
  const expected = PREAMBLE + headerLength + bodyLength;
  if (bytes.length < expected) fail(`truncated: ${bytes.length} bytes, where its preamble announces ${expected}`);
  if (bytes.length > expected) fail(`${bytes.length - expected} unexpected bytes after the ${expected} its preamble announces`);
  const digest = await sha256(bytes.subarray(0, DIGEST_AT), bytes.subarray(PREAMBLE));
  if (!digest.every((b, i) => b === bytes[DIGEST_AT + i]))
    fail('checksum mismatch: the file is corrupted (its SHA-256 does not match the one it was written with)');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREAMBLE, PREAMBLE + headerLength)), reviver as never);
  } catch (e) {
    fail(`the header is not valid UTF-8 JSON: ${(e as Error).message}`);
  }
  return { header, body: new DataView(buffer, PREAMBLE + headerLength, bodyLength) };
}
