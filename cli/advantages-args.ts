/**
 * Flags and input of the advantage calculator (cli/advantages.ts), parsed and checked apart from
 * running anything so that tests can check every rejection in-process. A bad flag is a UsageError, bad
 * input an InputError (src/advantages/batch-json.ts), each naming the flag or field; both exit with 2.
 */
import { readFileSync } from 'node:fs';
import { InputError, parseAdvantageRequest, type AdvantageRequest } from '../src/advantages/batch-json.ts';

export const USAGE = `usage: npm run -s advantages -- --input FILE [--backend cpu|webgpu]

  --input FILE   the batch as JSON ({ groups: [[{ reward, milestones }, …], …], gamma?, lambda?, … });
                 "-" reads stdin
  --backend      cpu (reference, default) or webgpu (the WGSL kernels through Dawn)`;

export const BACKENDS = ['cpu', 'webgpu'] as const;
export type Backend = (typeof BACKENDS)[number];

export class UsageError extends Error {}

export function parseAdvantagesArgs(argv: string[]): { input: string; backend: Backend } | 'help' {
  let input: string | undefined;
  let backend: Backend = 'cpu';
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') return 'help';
    const value = argv[i + 1];
    if (flag === '--input' || flag === '--backend') {
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`${flag} needs a value`);
      i++;
      if (flag === '--input') input = value;
      else if ((BACKENDS as readonly string[]).includes(value)) backend = value as Backend;
      else throw new UsageError(`--backend must be one of ${BACKENDS.join(', ')}; got ${JSON.stringify(value)}`);
    } else {
      throw new UsageError(`unknown flag ${JSON.stringify(flag)}; allowed: --input, --backend, --help`);
    }
  }
  if (input === undefined) throw new UsageError('--input is required');
  return { input, backend };
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
