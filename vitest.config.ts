/**
 * Vitest configuration.
 *
 * GPU tests run tfjs's WebGPU backend on Dawn (the `webgpu` package). Without a GPU driver that means
 * Chromium's SwiftShader Vulkan driver, selected by VK_ICD_FILENAMES. The Vulkan loader reads the real
 * process environment, so the variable is set here, in the main process, where the forked test
 * workers inherit it (an assignment inside a worker thread would never reach the native loader: keep
 * the `forks` pool). Set VK_ICD_FILENAMES yourself to test on another driver.
 */
import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
if (!process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) {
  process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // SwiftShader compiles and runs shaders on 2 CPU cores: generous, but still a bound.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
