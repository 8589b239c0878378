/**
 * Vitest configuration.
 *
 * GPU tests run tfjs's WebGPU backend on Dawn (the `webgpu` package). Without a GPU driver that means
 * Chromium's SwiftShader Vulkan driver, selected by VK_ICD_FILENAMES. The Vulkan loader reads the real
 * process environment, so the variable is set here, in the main process, where the forked test
 * workers inherit it (an assignment inside a worker thread would never reach the native loader: keep
 * the `forks` pool). Set VK_ICD_FILENAMES yourself to test on another driver.
 *
 * The end-to-end files serve one build of the page for the whole run (test/support/built-page.ts: the
 * global setup makes its folder, the first file that needs the page builds it). At the end of a run of
 * several files the ten slowest are printed (test/support/slowest-files-reporter.ts), so the suite's cost
 * stays in sight.
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
    globalSetup: ['test/support/built-page.ts'],
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // SwiftShader compiles and runs shaders on 2 CPU cores: generous, but still a bound.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
