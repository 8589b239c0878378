/**
 * Test-only GPU buffer helpers: upload a typed array as a storage buffer, read one back. The rollout
 * itself never reads back per step; tests do, to compare every step with the CPU.
 */

const STORAGE_IO = 0x0080 | 0x0004 | 0x0008; // STORAGE | COPY_SRC | COPY_DST

/** A storage buffer holding `data` (at least 4 bytes, rounded up to a multiple of 4). */
export function uploadBuffer(device: GPUDevice, data: ArrayBufferView, label = 'test input'): GPUBuffer {
  const size = Math.max(4, Math.ceil(data.byteLength / 4) * 4);
  const buffer = device.createBuffer({ label, size, usage: STORAGE_IO });
  if (data.byteLength > 0) device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
  return buffer;
}

/** A zeroed storage buffer of `bytes` bytes. */
export function emptyBuffer(device: GPUDevice, bytes: number, label = 'test output'): GPUBuffer {
  return device.createBuffer({ label, size: Math.max(4, Math.ceil(bytes / 4) * 4), usage: STORAGE_IO });
}

/** The bytes of `buffer` (its first `bytes`), after all submitted work. */
export async function readBack(device: GPUDevice, buffer: GPUBuffer, bytes = buffer.size): Promise<ArrayBuffer> {
  const size = Math.ceil(bytes / 4) * 4;
  const staging = device.createBuffer({ label: 'test read-back', size, usage: 0x0001 | 0x0008 }); // MAP_READ | COPY_DST
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(0x0001);
  const copy = staging.getMappedRange().slice(0, bytes);
  staging.unmap();
  staging.destroy();
  return copy;
}
