/**
 * The offer of 8 seeds on WebGPU: made only on webgpu, below 8 seeds, with both timings, and when 8
 * seeds cost at most 1.5 × one seed's iteration; its words name the measured ratio.
 */
import { describe, expect, it } from 'vitest';
import { OFFER_MAX_RATIO, OFFERED_SEEDS, PROBED_SEEDS, seedOffer } from '../../src/page/seed-offer.ts';

describe('the seed offer', () => {
  it('offers 8 seeds with the measured ratio when they cost at most 1.5 × one seed', () => {
    const offer = seedOffer({ 1: 40, 4: 44, 8: 52 }, 1, 'webgpu');
    expect(offer).toMatchObject({ seeds: 8, text: '8 seeds for the price of 1.3: switch' });
    expect(offer!.ratio).toBeCloseTo(1.3, 12);
    expect(offer!.detail).toMatch(/1 seed 40 ms, 4 seeds 44 ms, 8 seeds 52 ms/);
    expect(offer!.detail).toMatch(/restarts the race with 8 seeds per method on webgpu/);
    expect(seedOffer({ 1: 40, 8: 60 }, 3, 'webgpu')?.text).toBe('8 seeds for the price of 1.5: switch'); // exactly the limit
  });

  it('offers nothing above the limit, off webgpu, at 8 seeds or more, or without a timing', () => {
    expect(OFFER_MAX_RATIO).toBe(1.5);
    expect(PROBED_SEEDS).toEqual([4, OFFERED_SEEDS]);
    expect(seedOffer({ 1: 40, 8: 60.1 }, 1, 'webgpu')).toBeNull();
    expect(seedOffer({ 1: 40, 8: 44 }, 1, 'wasm')).toBeNull();
    expect(seedOffer({ 1: 40, 8: 44 }, 1, null)).toBeNull();
    expect(seedOffer({ 1: 40, 8: 44 }, 8, 'webgpu')).toBeNull();
    expect(seedOffer({ 1: 40, 8: null }, 1, 'webgpu')).toBeNull();
    expect(seedOffer({ 1: null, 8: 44 }, 1, 'webgpu')).toBeNull();
    expect(seedOffer({ 1: 0, 8: 44 }, 1, 'webgpu')).toBeNull();
    expect(seedOffer({}, 1, 'webgpu')).toBeNull();
  });
});
