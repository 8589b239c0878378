/**
 * Links the kernels of shaders/ with WESL (the `wesl` package): each kernel is a `.wgsl` file that may
 * `import package::lib::<module>::<name>;` helpers from shaders/lib/, and the linker emits one WGSL
 * text per kernel holding only what it uses. Both loaders call this, at load time: `shaders-vite.ts`
 * with the files Vite inlined, `shaders-node.ts` with the files read from disk, so the page, the
 * service worker's offline build, the CLIs and the tests run the same linked text (docs/wgsl.md).
 *
 * Errors name the file and line: a syntax or link error from the linker is rethrown as
 * `shaders/<file>.wgsl:<line>:<column>: <message>`, and each linked text keeps its source map so that
 * a compiler message from WebGPU (an offset in the linked text) is traced back to its file and line
 * (`shaderOrigin` in shader-source.ts).
 */
import { linkRegistry, offsetToLineNumber, RecordResolver } from 'wesl/core';
import { KERNEL_NAMES, type KernelName, registerShaderOrigin, type ShaderSources } from './shader-source.ts';

/** Where the shader files live, as errors name them. */
export const SHADER_ROOT = 'shaders';

/** A module file in shaders/: its path relative to shaders/ (`gridhouse-step.wgsl`, `lib/philox.wgsl`). */
export type ShaderFiles = Readonly<Record<string, string>>;

/** A syntax or link error in a shader file, with the file and line it names. */
export class ShaderLinkError extends Error {
  override readonly name = 'ShaderLinkError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    detail: string,
  ) {
    super(`${file}:${line}:${column}: ${detail}`);
  }
}

interface WeslLocated {
  weslLocation?: { file: string; line: number; column: number };
}

/**
 * A file as the linker names it (`./lib/x.wesl`, `shaders/lib/x.wesl`: it spells every module
 * `.wesl`) as the repository names it (`shaders/lib/x.wgsl`).
 */
function repoPath(files: ShaderFiles, file: string): string {
  const bare = file.replace(/^\.\//, '').replace(new RegExp(`^${SHADER_ROOT}/`), '');
  const wgsl = bare.replace(/\.wesl$/, '.wgsl');
  return `${SHADER_ROOT}/${bare in files || !(wgsl in files) ? bare : wgsl}`;
}

function linkError(files: ShaderFiles, e: unknown, kernel: string): Error {
  if (!(e instanceof Error)) return new Error(`linking WGSL kernel ${kernel}: ${String(e)}`);
  const where = (e as WeslLocated).weslLocation;
  if (where) return new ShaderLinkError(repoPath(files, where.file), where.line, where.column, `${e.message.split('\n')[0]} (linking ${kernel})`);
  // Parse errors carry their place at the head of the message: "shaders/file.wesl:3:24 error: …".
  const parsed = /^(\S+?\.w(?:g|e)sl):(\d+):(\d+)\s+(?:error:\s*)?([^\n]*)/.exec(e.message);
  if (parsed) return new ShaderLinkError(repoPath(files, parsed[1]), Number(parsed[2]), Number(parsed[3]), `${parsed[4]} (linking ${kernel})`);
  return new Error(`linking WGSL kernel ${kernel}: ${e.message}`);
}

/**
 * Links one root module (a file of `files`, without `.wgsl`) against the others. Throws a
 * ShaderLinkError naming the file and line of a syntax or link error.
 */
export function linkShader(files: ShaderFiles, root: string, resolver = resolverFor(files)): string {
  let linked: ReturnType<typeof linkRegistry>;
  try {
    linked = linkRegistry({ resolver, rootModuleName: `./${root}.wgsl` });
  } catch (e) {
    throw linkError(files, e, root);
  }
  const text = linked.dest.text;
  registerShaderOrigin(text, (offset) => {
    const { src, position } = linked.destToSrc(offset);
    const [line, column] = offsetToLineNumber(position, src.text);
    return `${repoPath(files, src.path ?? `${root}.wgsl`)}:${line}:${column}`;
  });
  return text;
}

function resolverFor(files: ShaderFiles): RecordResolver {
  const sources: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) sources[`./${path}`] = text;
  return new RecordResolver(sources, { debugWeslRoot: SHADER_ROOT });
}

/** Every kernel of KERNEL_NAMES linked from the files of shaders/ (one parse of each file). */
export function linkKernels(files: ShaderFiles): ShaderSources {
  const resolver = resolverFor(files);
  const sources = {} as Record<KernelName, string>;
  for (const name of KERNEL_NAMES) {
    if (!(`${name}.wgsl` in files)) throw new Error(`WGSL kernel ${name}: ${SHADER_ROOT}/${name}.wgsl is missing`);
    sources[name] = linkShader(files, name, resolver);
  }
  return sources;
}
