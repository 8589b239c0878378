/**
 * `npm run test:slow`: the end-to-end checks too long for `npm test` on a CPU standing in for a GPU
 * (test/**\/*.slow.ts), e.g. 4,096 runs per method on WebGPU. vitest.config.ts sets VK_ICD_FILENAMES
 * when it is imported; the pool is the same (`forks`).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({ test: { ...base.test, include: ['test/**/*.slow.ts'] } });
