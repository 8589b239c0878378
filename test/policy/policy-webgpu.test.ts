/**
 * The deduplicated policy on webgpu (Dawn in Node): the same parity with the every-pair reference as
 * on cpu and wasm (policy.test.ts), including the ScatterNd gradient of the score pick.
 */
import { beforeAll, describe, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { expectMatchesReference, expectNoLeak } from '../support/policy-reference.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

beforeAll(async () => {
  await useWebGpuBackend();
});

describe('policy on webgpu', () => {
  it('deduplicated logits, entropies and gradients match the every-pair reference to float32 precision', async () => {
    await expectMatchesReference();
  });

  it('leaves no tensors behind', async () => {
    await expectNoLeak();
  });
});
