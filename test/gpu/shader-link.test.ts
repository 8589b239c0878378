/**
 * Linking the kernels of shaders/ with WESL (src/gpu/shader-link.ts, docs/wgsl.md): a syntax or link
 * error names the file and line it is in, and a compiler message from WebGPU about a linked kernel is
 * traced back to the module file and line it came from (Dawn, SwiftShader here).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GpuKernelError, KernelRunner } from '../../src/gpu/kernel.ts';
import { linkKernels, linkShader, ShaderLinkError } from '../../src/gpu/shader-link.ts';
import { readShaderFiles } from '../../src/gpu/shaders-node.ts';
import { VITE_SHADER_FILES } from '../../src/gpu/shaders-vite.ts';
import { STEP_GROUP_REDUCE } from '../../src/gpu/step-group-reduce.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

const FILES = readShaderFiles();

/** `files` with `from` replaced by `to` in `path`, checking the replacement changed something. */
function edit(path: string, from: string, to: string): Record<string, string> {
  const text = FILES[path];
  expect(text, `${path} must contain the text to break`).toContain(from);
  return { ...FILES, [path]: text.replace(from, to) };
}

/** 1-based line of the first occurrence of `needle` in `path`. */
function lineOf(path: string, needle: string): number {
  return FILES[path].slice(0, FILES[path].indexOf(needle)).split('\n').length;
}

function linkFailure(files: Record<string, string>, root: string): ShaderLinkError {
  try {
    linkShader(files, root);
  } catch (e) {
    expect(e).toBeInstanceOf(ShaderLinkError);
    return e as ShaderLinkError;
  }
  throw new Error(`linking ${root} was expected to fail`);
}

describe('linking the WGSL modules', () => {
  it('Vite and Node see the same files, shared helpers included', () => {
    expect(Object.keys(VITE_SHADER_FILES).sort()).toEqual(Object.keys(FILES).sort());
    expect(Object.keys(FILES)).toContain('lib/philox.wgsl');
    expect(Object.keys(FILES)).toContain('lib/env_step.wgsl');
    expect(Object.keys(FILES)).toContain('lib/ppo_batch.wgsl');
  });

  it('a linked kernel holds each helper it imports once, and no import statement', () => {
    const linked = linkKernels(FILES);
    for (const text of Object.values(linked)) expect(text).not.toMatch(/^\s*import /m);
    expect(linked['sample-actions'].match(/fn philox4x32\(/g)).toHaveLength(1);
    for (const env of ['gridhouse-step', 'texthouse-step', 'shop-step'] as const) expect(linked[env].match(/fn record\(/g)).toHaveLength(1);
    for (const ppo of ['ppo-forward', 'ppo-step-loss', 'ppo-grad-norm', 'ppo-adam'] as const) expect(linked[ppo].match(/struct Params \{/g)).toHaveLength(1);
  });

  it('a syntax error in a shared module names that module’s file and line', () => {
    const files = edit('lib/philox.wgsl', 'let lo0 = 0xd2511f53u * x.x;', 'let lo0 = 0xd2511f53u * x.x');
    const error = linkFailure(files, 'sample-actions');
    expect(error.file).toBe('shaders/lib/philox.wgsl');
    expect(error.line).toBe(lineOf('lib/philox.wgsl', 'let lo0 = 0xd2511f53u * x.x;'));
    expect(error.message).toMatch(/^shaders\/lib\/philox\.wgsl:\d+:\d+: .*(linking sample-actions)/);
  });

  it('an import of a name the module does not declare names the importing file and line', () => {
    const files = edit('step-returns.wgsl', 'invocationIndex};', 'invocationIndex, launchIndex};');
    const withUse = { ...files, 'step-returns.wgsl': files['step-returns.wgsl'].replace('let run = invocationIndex(id);', 'let run = launchIndex(id);') };
    const error = linkFailure(withUse, 'step-returns');
    expect(error.file).toBe('shaders/step-returns.wgsl');
    expect(error.line).toBe(lineOf('step-returns.wgsl', 'let run = invocationIndex(id);'));
    expect(error.message).toMatch(/launchIndex/);
  });

  it('an identifier no module declares names the file and line that uses it', () => {
    const files = edit('lib/env_step.wgsl', 'setEp(f.milestone, 0u);', 'setEp(f.milestone, noSuchValue);');
    const error = linkFailure(files, 'shop-step');
    expect(error.file).toBe('shaders/lib/env_step.wgsl');
    expect(error.line).toBe(lineOf('lib/env_step.wgsl', 'setEp(f.milestone, 0u);'));
    expect(error.message).toMatch(/noSuchValue/);
  });

  it('a missing kernel file is named', () => {
    const rest = Object.fromEntries(Object.entries(FILES).filter(([path]) => path !== 'policy-logits.wgsl'));
    expect(() => linkKernels(rest)).toThrow(/shaders\/policy-logits\.wgsl is missing/);
  });
});

describe('compiler messages on Dawn name the module file and line', () => {
  let device: GPUDevice;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
  });

  it('a type error in a shared module (which WESL links without complaint) is reported at its file and line', async () => {
    const files = edit('lib/compensated_sum.wgsl', 'return CompensatedSum(next, (next - acc.sum) - y);', 'return CompensatedSum(next, true);');
    const linked = linkShader(files, 'step-group-reduce');
    const failure = await KernelRunner.create(device, STEP_GROUP_REDUCE, linked, 64).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GpuKernelError);
    const line = lineOf('lib/compensated_sum.wgsl', 'return CompensatedSum(next, (next - acc.sum) - y);');
    expect((failure as Error).message).toMatch(
      new RegExp(`WGSL kernel step-group-reduce: [\\s\\S]*error at \\d+:\\d+ \\(shaders/lib/compensated_sum\\.wgsl:${line}:\\d+\\)`),
    );
  });
});
