/**
 * Command-line flags for config fields: `--name value` for any field of src/config.ts, plus the
 * command's own extra flags. Errors name the flag and its allowed range; the caller exits with 2.
 */
import { CONFIG_FIELDS, describeRange, parseConfig, type TrainConfig } from '../src/config.ts';

export class UsageError extends Error {}

export interface ParsedFlags {
  config: TrainConfig;
  /** Values of the command's extra flags (not config fields), by name. */
  extra: Map<string, string>;
}

/**
 * `extraFlags` maps each extra flag name to whether it takes a value (`true`) or is a switch (`false`).
 */
export function parseConfigFlags(argv: string[], base: TrainConfig, extraFlags: Record<string, boolean> = {}): ParsedFlags {
  const entries: [string, string][] = [];
  const extra = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}; flags look like --name value`);
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    if (name in extraFlags && !extraFlags[name]) {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      extra.set(name, 'true');
      continue;
    }
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
    }
    if (name in extraFlags) extra.set(name, value);
    else entries.push([name, value]);
  }
  const { config, issues } = parseConfig(entries, base);
  if (issues.length > 0) throw new UsageError(issues.map((i) => `--${i.field}: ${i.message}`).join('\n'));
  return { config, extra };
}

export function configHelp(): string {
  return CONFIG_FIELDS.map((s) => `  --${s.key.padEnd(18)} ${s.doc} (${describeRange(s)}; default ${String(s.default)})`).join('\n');
}
