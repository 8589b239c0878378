/**
 * The one command-line flag parser, for every command (`cli/`) and every bench (`bench/`).
 *
 * A command declares its own flags in a table (`FlagTable`) and may also take every training setting of
 * `src/config.ts` as `--name value`. Values are checked with the same parser as the URL query
 * (`parseValue`), so a flag and a URL parameter reject the same input with the same words. Any unknown,
 * repeated, missing or out-of-range flag throws one `UsageError` naming the flag and what it allows;
 * `runCommand` turns that into the usage text on stderr and exit code 2.
 */
import { CONFIG_FIELDS, describeKind, parseConfig, parseValue, type TrainConfig, type ValueKind } from '../src/config.ts';

export class UsageError extends Error {}

export type FlagSpec =
  | { kind: 'switch'; doc: string }
  | { kind: 'string'; doc: string; required?: boolean; placeholder?: string }
  | { kind: ValueKind; doc: string; required?: boolean };

export type FlagTable = Record<string, FlagSpec>;

type FlagValue<S extends FlagSpec> = S extends { kind: 'switch' }
  ? boolean
  : S extends { kind: 'string' }
    ? string
    : S extends { kind: { type: 'bool' } }
      ? boolean
      : S extends { kind: { type: 'enum'; values: readonly (infer V)[] } }
        ? V
        : S extends { kind: { type: 'int' | 'number' | 'list' } }
          ? S extends { kind: { type: 'list' } }
            ? number[]
            : number
          : never;

export type FlagValues<T extends FlagTable> = { [K in keyof T]?: FlagValue<T[K]> };

export interface ParsedFlags<T extends FlagTable> {
  /** The command's own flags, typed; a flag that was not given is absent. */
  flags: FlagValues<T>;
  /** The training config: `base` with every setting flag applied (only when `base` was passed). */
  config: TrainConfig;
  /** Names of the training settings given on the command line. */
  settingsGiven: Set<keyof TrainConfig>;
  /** True for --help / -h (nothing else is checked then). */
  help: boolean;
}

/**
 * Parses `argv` against the command's `table`; with `base`, every training setting is a flag too.
 * Flags are `--name value`, `--name=value`, or `--name` alone for switches.
 */
export function parseFlags<T extends FlagTable>(argv: readonly string[], table: T, base?: TrainConfig): ParsedFlags<T> {
  if (argv.includes('--help') || argv.includes('-h')) return { flags: {}, config: base ?? ({} as TrainConfig), settingsGiven: new Set(), help: true };
  const flags: Record<string, unknown> = {};
  const settings: [string, string][] = [];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg.length === 2) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}; flags look like --name value`);
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) [name, value] = [name.slice(0, eq), name.slice(eq + 1)];
    const spec = table[name];
    const isSetting = !spec && base !== undefined && CONFIG_FIELDS.some((s) => s.key === name);
    if (!spec && !isSetting) throw new UsageError(`unknown flag --${name}; known flags: ${knownFlags(table, base !== undefined).join(', ')}`);
    if (seen.has(name)) throw new UsageError(`--${name} is given more than once`);
    seen.add(name);
    if (spec?.kind === 'switch') {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    if (isSetting) {
      settings.push([name, value]);
      continue;
    }
    if (spec.kind === 'string') {
      flags[name] = value;
      continue;
    }
    const parsed = parseValue(name, spec.kind, value);
    if ('error' in parsed) throw new UsageError(`--${parsed.error}`);
    flags[name] = parsed.value;
  }
  for (const [name, spec] of Object.entries(table)) {
    if ('required' in spec && spec.required && !(name in flags)) throw new UsageError(`--${name} is required: ${spec.doc}`);
  }
  const { config, issues } = parseConfig(settings, base);
  if (issues.length > 0) throw new UsageError(issues.map((issue) => `--${issue.message}`).join('\n'));
  return { flags: flags as FlagValues<T>, config, settingsGiven: new Set(settings.map(([k]) => k as keyof TrainConfig)), help: false };
}

function knownFlags(table: FlagTable, withSettings: boolean): string[] {
  return [...Object.keys(table), ...(withSettings ? CONFIG_FIELDS.map((s) => s.key) : []), 'help'].map((k) => `--${k}`);
}

/** Help lines for the command's own flags and, with `base`, every training setting with its default. */
export function flagsHelp(table: FlagTable, base?: TrainConfig): string {
  const line = (name: string, doc: string) => `  --${name.padEnd(18)} ${doc}`;
  const own = Object.entries(table).map(([name, spec]) => {
    const range = spec.kind === 'switch' || spec.kind === 'string' ? '' : ` (${describeKind(spec.kind)})`;
    return line(name, `${spec.doc}${range}${'required' in spec && spec.required ? '; required' : ''}`);
  });
  const settings = base ? CONFIG_FIELDS.map((s) => line(s.key, `${s.doc} (${describeKind(s.kind)}; default ${String(base[s.key])})`)) : [];
  return [...own, ...settings].join('\n');
}

/**
 * Runs a command's `main` and exits with its code: 2 with the usage text for a `UsageError` (or for any
 * error class listed in `usageErrors`, e.g. bad input files), 1 with the message for anything else.
 */
export function runCommand(main: () => Promise<number> | number, usage: string, usageErrors: (new (...args: never[]) => Error)[] = []): void {
  Promise.resolve()
    .then(main)
    .then(
      (code) => process.exit(code),
      (e: unknown) => {
        if (e instanceof UsageError) {
          process.stderr.write(`${e.message}\n\n${usage}\n`);
          process.exit(2);
        }
        if (usageErrors.some((cls) => e instanceof cls)) {
          process.stderr.write(`${(e as Error).message}\n`);
          process.exit(2);
        }
        process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      },
    );
}
