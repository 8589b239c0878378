/**
 * Several seeds' fused updates (fused-ppo.ts) in one submit: the seeds of one method, each with its
 * own FusedPpoKernels, hand their recorded updates to a meeting (src/trainer/seed-meeting.ts), and
 * `submitSeedUpdates` puts them one after the other into one command buffer.
 *
 * Why this is each seed's own update: each seed records with its own runners (its own uniform
 * buffers), its own flat buffers and its own variables, written by the host before the meeting; the
 * command buffer runs them in seed order, so every kernel reads what it reads alone. What is shared is
 * the submit and its error scopes, not the dispatches: each seed's gather, permutation and seven
 * kernels per minibatch are still its own (a seed axis through the update's kernels would join them).
 */
import { popScopes, pushScopes } from './fused-flat-buffers.ts';

/** One seed's update, ready to record: everything it binds is written, its runners prepared. */
export interface SeedUpdateCall {
  device: GPUDevice;
  /** Records the seed's whole update (copies in, dispatches, copies out) into `encoder`. */
  record: (encoder: GPUCommandEncoder) => void;
}

/** Where a seed's update meets the others' (seed-meeting.ts): armed only while its seeds step together. */
export interface UpdateSeat {
  readonly armed: boolean;
  join(call: SeedUpdateCall): Promise<void>;
  leave(): void;
}

/** The calls' updates in seed order in one command buffer and one submit; rejects naming the update if the device reports an error. */
export function submitSeedUpdates(calls: readonly SeedUpdateCall[]): Promise<void> {
  const { device } = calls[0];
  const label = `fused ppo update (${calls.length} seeds)`;
  const scopes = pushScopes(device);
  let errors: Promise<void>;
  try {
    const encoder = device.createCommandEncoder({ label });
    for (const call of calls) call.record(encoder);
    device.queue.submit([encoder.finish()]);
  } finally {
    errors = popScopes(device, scopes, label);
  }
  return errors;
}
