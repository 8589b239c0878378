/**
 * The fused update's kernels timed one by one (bench/profile-fused-update.ts): each minibatch's
 * dispatches submitted alone and waited for, so that a kernel's time is its own, not the queue's.
 */
import { FUSED_PPO_KERNELS } from './fused-ppo-kernels.ts';

/** Records and submits each of `count` minibatches' kernels alone, adding their times into `profile` by kernel name. */
export async function profileMinibatches(
  device: GPUDevice,
  profile: Map<string, number>,
  count: number,
  record: (pass: GPUComputePassEncoder, j: number, only: number) => void,
): Promise<void> {
  await device.queue.onSubmittedWorkDone();
  for (let j = 0; j < count; j++)
    for (let k = 0; k < FUSED_PPO_KERNELS.length; k++) {
      const encoder = device.createCommandEncoder({ label: 'fused ppo profile' });
      const pass = encoder.beginComputePass();
      record(pass, j, k);
      pass.end();
      const t0 = performance.now();
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
      const name = FUSED_PPO_KERNELS[k].name;
      profile.set(name, (profile.get(name) ?? 0) + performance.now() - t0);
    }
}
