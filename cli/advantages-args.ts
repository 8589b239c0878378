/**
 * Flags and input of the advantage calculator (cli/advantages.ts), parsed and checked apart from
 * running anything so that tests can check every rejection in-process. A bad flag is a UsageError, bad
 * input an InputError (cli/batch-json.ts), each naming the flag or field; both exit with 2.
 */
import { readFileSync } from 'node:fs';
import { InputError, parseAdvantageRequest, type AdvantageRequest } from './batch-json.ts';
import { BACKEND_NAMES } from '../src/backend/select.ts';
import { flagsHelp, parseFlags, UsageError } from './flags.ts';

const FLAGS = {
  input: { kind: 'string', required: true, doc: 'the batch as JSON ({ method?, gamma?, …, groups: [[{ reward, milestones }, …], …] }); "-" reads stdin' },
  backend: { kind: { type: 'enum', values: BACKEND_NAMES }, doc: 'webgpu computes through the WGSL kernels on Dawn; wasm and cpu run the CPU reference (default cpu)' },
} as const;

export const USAGE = `usage: npm run -s advantages -- --input FILE [--backend ${BACKEND_NAMES.join('|')}]\n${flagsHelp(FLAGS)}`;

export type Backend = (typeof BACKEND_NAMES)[number];

export function parseAdvantagesArgs(argv: string[]): { input: string; backend: Backend } | 'help' {
  const { flags, help } = parseFlags(argv, FLAGS);
  if (help) return 'help';
  return { input: flags.input!, backend: flags.backend ?? 'cpu' };
}

/** Reads and parses the batch at `input` (a path, or - for stdin). */
export function readAdvantageRequest(input: string): AdvantageRequest {
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
  return parseAdvantageRequest(json);
}
