/**
 * Flags and input of the advantage calculator (cli/advantages.ts), parsed and checked apart from
 * running anything so that tests can check every rejection in-process. A bad flag is a UsageError, bad
 * input an InputError (cli/batch-json.ts), each naming the flag or field; both exit with 2.
 */
import { readFileSync } from 'node:fs';
import { InputError, parseAdvantageRequest, type AdvantageRequest } from './batch-json.ts';
import { BACKEND_NAMES } from '../src/backend/select.ts';
import { custom } from '../src/methods/custom.ts';
import { ESTIMATOR_FLAGS } from './estimator-flags.ts';
import { flagsHelp, parseFlags, UsageError } from './flags.ts';

const FLAGS = {
  input: { kind: 'string', required: true, doc: 'the batch as JSON ({ method?, gamma?, …, groups: [[{ reward, milestones }, …], …] }); "-" reads stdin' },
  backend: {
    kind: { type: 'enum', values: BACKEND_NAMES },
    doc: 'webgpu computes through the WGSL kernels on Dawn; wasm and cpu run the CPU reference (default cpu)',
  },
  ...ESTIMATOR_FLAGS,
} as const;

export const USAGE = `usage: npm run -s advantages -- --input FILE [--backend ${BACKEND_NAMES.join('|')}]
       npm run -s advantages -- --input FILE --estimator FILE.js [--estimatorTimeout SECONDS]
${flagsHelp(FLAGS)}`;

export type Backend = (typeof BACKEND_NAMES)[number];

export function parseAdvantagesArgs(argv: string[]): { input: string; backend: Backend; estimator?: string; estimatorTimeout?: number } | 'help' {
  const { flags, help } = parseFlags(argv, FLAGS);
  if (help) return 'help';
  if (flags.estimator === undefined && flags.estimatorTimeout !== undefined) throw new UsageError('--estimatorTimeout needs --estimator FILE');
  if (flags.estimator !== undefined && flags.backend !== undefined && flags.backend !== 'cpu')
    throw new UsageError(`--estimator runs your estimator in a worker thread, not on ${flags.backend}: leave --backend out`);
  return {
    input: flags.input!,
    backend: flags.backend ?? 'cpu',
    ...(flags.estimator === undefined ? {} : { estimator: flags.estimator }),
    ...(flags.estimatorTimeout === undefined ? {} : { estimatorTimeout: flags.estimatorTimeout }),
  };
}

/**
 * Reads and parses the batch at `input` (a path, or - for stdin). `forEstimator`: the batch is for a
 * visitor's estimator (method custom), so its `method` field must be absent or "custom", and only
 * milestones are required per run.
 */
export function readAdvantageRequest(input: string, forEstimator = false): AdvantageRequest {
  let text: string;
  try {
    text = readFileSync(input === '-' ? 0 : input, 'utf8');
  } catch (e) {
    throw new UsageError(`--input: cannot read ${input}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(`input is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!forEstimator) return parseAdvantageRequest(json);
  const { method, ...rest } = (typeof json === 'object' && json !== null && !Array.isArray(json) ? json : { groups: json }) as Record<string, unknown>;
  if (method !== undefined && method !== custom.name)
    throw new InputError(`method must be ${custom.name} (or left out) with --estimator; got ${JSON.stringify(method)}`);
  const request = parseAdvantageRequest(rest);
  return { ...request, settings: { ...request.settings, method: custom.name } };
}
