/**
 * The SFT prior's size and passes with `sftEpisodes: auto` (src/trainer/prior-size.ts, docs/maths.md §9):
 * each environment's registry entry decides its calibrated prior; a number of episodes keeps sftEpochs.
 */
import { describe, expect, it } from 'vitest';
import { envEntry } from '../../envs/index.ts';
import { DEFAULT_CONFIG } from '../../src/config.ts';
import { priorEpisodes, priorEpochs } from '../../src/trainer/prior-size.ts';

describe('prior size', () => {
  it("auto takes the shop's calibrated passes from its registry entry, more than the shared sftEpochs", () => {
    const shop = envEntry('shop');
    expect(shop.priorEpochs).toBeGreaterThan(DEFAULT_CONFIG.sftEpochs);
    const auto = { ...DEFAULT_CONFIG, env: 'shop', sftEpisodes: 'auto' } as const;
    expect(priorEpisodes(auto)).toBe(shop.priorEpisodes);
    expect(priorEpochs(auto)).toBe(shop.priorEpochs);
  });

  it('auto keeps sftEpochs where the entry names no passes, and a number of episodes always does', () => {
    expect(envEntry('gridhouse').priorEpochs).toBeUndefined();
    expect(priorEpochs({ env: 'gridhouse', sftEpisodes: 'auto', sftEpochs: 7 })).toBe(7);
    expect(priorEpochs({ env: 'shop', sftEpisodes: 64, sftEpochs: 7 })).toBe(7);
    expect(priorEpisodes({ env: 'shop', sftEpisodes: 64 })).toBe(64);
  });
});
