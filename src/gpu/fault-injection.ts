/**
 * Test-only fault injection for the GPU path (docs/page-failures.md): a worker arms a fault with a
 * `fault` message (src/worker/protocol.ts), which only end-to-end tests send, and the next GPU call of
 * that kind fails for real, through the same error scope or replay check that a real fault would:
 * - `kernel`: a buffer with an invalid usage is created inside the next kernel dispatch's (or GPU
 *   rollout's) error scopes, so the device reports a validation error and the caller throws
 *   GpuKernelError as for any kernel error;
 * - `replay`: the next GPU rollout's first recorded action is replaced by one no environment admits,
 *   so the TypeScript replay does not match and the rollout throws as for a real divergence;
 * - `logProb`: the next GPU rollout's recorded log-probability of a checked run's first step is moved
 *   by 0.01, so the check against the policy (src/trainer/log-prob-check.ts) throws;
 * - `updateRefusal`: the fused update's next limits check (fused-ppo-batch.ts) refuses the batch, as a
 *   batch over the adapter's limits would, so the trainer takes the tfjs ops and records the fallback
 *   (a bench's `--require-gpu-path` test arms it in the bench's own process: test/support/bench-with-fault.ts).
 * Nothing is armed unless a test asks: the page's own controls never send `fault`.
 */
export type ArmedGpuFault = 'kernel' | 'replay' | 'logProb' | 'updateRefusal';

const armed = new Set<ArmedGpuFault>();

/** Arms `fault` for the next GPU call of its kind (once). */
export function armGpuFault(fault: ArmedGpuFault): void {
  armed.add(fault);
}

/** True (and disarmed) when `fault` was armed. */
export function takeGpuFault(fault: ArmedGpuFault): boolean {
  return armed.delete(fault);
}

/** Where a `kernel` fault is armed, makes `device` report a validation error in the current error scope. */
export function injectKernelFault(device: GPUDevice): void {
  if (!takeGpuFault('kernel')) return;
  // MAP_READ may only be combined with COPY_DST: a validation error, as a broken kernel would raise.
  device.createBuffer({ label: 'injected fault (test hook)', size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE });
}
