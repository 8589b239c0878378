/**
 * Fuzzing of the three inputs strangers type: page URL queries (readPageState), train's flags
 * (parseFlags with TRAIN_FLAGS) and `advantages` JSON (parseAdvantageRequest and the method's
 * estimator). `npm run reliability` (bench/reliability.ts) runs them at full size and
 * test/reliability.test.ts runs them small; the soak and the injected faults are in reliability-checks.ts.
 *
 * Verdicts: a crash is any exception other than the input's own error class (UsageError, InputError)
 * or, for the URL reader, any exception at all; a stack trace is a message that contains one; a
 * rejection must name the field it rejects.
 */
import fc from 'fast-check';
import { parseFlags, UsageError } from '../cli/flags.ts';
import { TRAIN_FLAGS } from '../cli/train-flags.ts';
import { InputError, parseAdvantageRequest } from '../cli/batch-json.ts';
import { ADVANTAGE_KEYS, CONFIG_FIELDS, DEFAULT_CONFIG } from '../src/config.ts';
import { METHOD_NAMES, methodSpec } from '../src/methods/registry.ts';
import { readPageState } from '../src/page/url-state.ts';

const STACK = /\n\s+at /;

export interface FuzzResult {
  cases: number;
  accepted: number;
  rejected: number;
  crashes: number;
  stackTraces: number;
  /** Rejections whose message does not name a field of the input. */
  unnamed: number;
  /** The first few failures, for the report. */
  examples: string[];
}

function tally(): FuzzResult {
  return { cases: 0, accepted: 0, rejected: 0, crashes: 0, stackTraces: 0, unnamed: 0, examples: [] };
}

function note(r: FuzzResult, kind: 'crashes' | 'stackTraces' | 'unnamed', what: string) {
  r[kind]++;
  if (r.examples.length < 5) r.examples.push(`${kind}: ${what}`);
}

/** Values that are almost right, plainly wrong, or hostile. */
const nastyText = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'NaN', 'Infinity', '-0', '1e309', '0x10', '1_000', 'true', 'auto', 'null', '%00', '\u0000', '💥', '__proto__', 'constructor'),
  fc.double().map(String),
  fc.integer().map(String),
);

const settingValue = (key: string) => {
  const spec = CONFIG_FIELDS.find((s) => s.key === key);
  const good =
    spec?.kind.type === 'enum'
      ? fc.constantFrom(...spec.kind.values)
      : spec?.kind.type === 'bool'
        ? fc.constantFrom('true', 'false')
        : fc.double({ min: -10, max: 1000, noNaN: true }).map(String);
  return fc.oneof(good, nastyText);
};

const anyKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CONFIG_FIELDS.map((s) => s.key), 'speed', 'smoothing', 'methods') },
  { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', '')) },
);

/** Random page URL queries through readPageState: it must never throw, and every issue names its key. */
export function fuzzUrlQueries(numRuns: number, seed: number): FuzzResult {
  const r = tally();
  const query = fc.oneof(
    fc
      .array(
        fc.tuple(anyKey, fc.string()).chain(([k]) => fc.tuple(fc.constant(k), settingValue(k))),
        { maxLength: 8 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString()),
    fc.string({ maxLength: 200 }),
    fc.array(fc.constantFrom('&', '=', '?', '%', '%2', '%zz', '+', 'gamma', 'seed', '1', '#'), { maxLength: 30 }).map((xs) => xs.join('')),
  );
  fc.assert(
    fc.property(query, (q) => {
      r.cases++;
      try {
        const { issues } = readPageState(q);
        const keys = [...new URLSearchParams(q).keys()];
        if (issues.length === 0) r.accepted++;
        else r.rejected++;
        for (const issue of issues) {
          if (STACK.test(issue.message)) note(r, 'stackTraces', JSON.stringify(q));
          if (typeof issue.message !== 'string') return void note(r, 'crashes', `${JSON.stringify(q)} → an issue whose message is ${typeof issue.message}`);
          if (!keys.includes(issue.field) || !(issue.message.includes(issue.field) || issue.message.includes(JSON.stringify(issue.field))))
            note(r, 'unnamed', `${JSON.stringify(q)} → ${issue.message}`);
        }
      } catch (e) {
        note(r, 'crashes', `${JSON.stringify(q)} → ${String(e)}`);
      }
    }),
    { numRuns, seed },
  );
  return r;
}

/** Random train command lines through parseFlags with train's table: a UsageError naming a flag, or a config. */
export function fuzzTrainFlags(numRuns: number, seed: number): FuzzResult {
  const r = tally();
  const names = [...Object.keys(TRAIN_FLAGS), ...CONFIG_FIELDS.map((s) => s.key), 'help'];
  const token = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...names).chain((n) =>
        fc.oneof(
          settingValue(n).map((v) => [`--${n}`, v]),
          settingValue(n).map((v) => [`--${n}=${v}`]),
          fc.constant([`--${n}`]),
        ),
      ),
    },
    { weight: 1, arbitrary: nastyText.map((t) => [t]) },
    { weight: 1, arbitrary: fc.string().map((t) => [`--${t}`]) },
  );
  const argv = fc.array(token, { maxLength: 8 }).map((xs) => xs.flat());
  fc.assert(
    fc.property(argv, (args) => {
      r.cases++;
      try {
        parseFlags(args, TRAIN_FLAGS, DEFAULT_CONFIG);
        r.accepted++;
      } catch (e) {
        if (!(e instanceof UsageError)) return void note(r, 'crashes', `${JSON.stringify(args)} → ${String(e)}`);
        r.rejected++;
        if (STACK.test(e.message)) note(r, 'stackTraces', JSON.stringify(args));
        // The message names a flag of the command line (--name) or quotes the argument it could not read.
        const named =
          args.some((a) => {
            const name = a.startsWith('--') ? a.slice(2).split('=')[0] : null;
            return (name !== null && e.message.includes(`--${name}`)) || (name === null && e.message.includes(JSON.stringify(a)));
          }) || /^--\w+ is required/.test(e.message);
        if (!named) note(r, 'unnamed', `${JSON.stringify(args)} → ${e.message}`);
      }
    }),
    { numRuns, seed },
  );
  return r;
}

const FIELD_WORDS = ['groups', 'input', 'reward', 'milestones', 'stateKeys', 'values', ...ADVANTAGE_KEYS];

/**
 * Random or malformed `advantages` requests through parseAdvantageRequest and the method's estimator:
 * an InputError naming a field, or advantages that are all finite numbers.
 */
export function fuzzAdvantageInputs(numRuns: number, seed: number): FuzzResult {
  const r = tally();
  const num = fc.oneof(
    { weight: 1, arbitrary: fc.double() },
    { weight: 30, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 3 }) },
  );
  // Mostly well-typed, sometimes anything at all: most cases reach the estimators, the rest the checks.
  const maybe = <T>(a: fc.Arbitrary<T>) =>
    fc.option(fc.oneof({ weight: 20, arbitrary: a }, { weight: 1, arbitrary: fc.anything() }), { nil: undefined, freq: 3 });
  // Which per-step arrays the runs carry is drawn once per request (the format wants all runs or none).
  const run = (has: { milestones: boolean; stateKeys: boolean; values: boolean }) =>
    fc.integer({ min: 1, max: 6 }).chain((len) => {
      const steps = <T>(a: fc.Arbitrary<T>) => fc.array(a, { minLength: len, maxLength: len });
      return fc.record({
        reward: fc.oneof({ weight: 20, arbitrary: num }, { weight: 1, arbitrary: fc.anything() }),
        ...(has.milestones ? { milestones: steps(fc.constantFrom(0, 1)) } : {}),
        ...(has.stateKeys ? { stateKeys: steps(fc.constantFrom('a', 'b', 'c')) } : {}),
        ...(has.values ? { values: steps(num) } : {}),
      });
    });
  const wellTyped = fc.record({ milestones: fc.boolean(), stateKeys: fc.boolean(), values: fc.boolean() }).chain((has) =>
    fc.record(
      {
        method: maybe(fc.constantFrom(...METHOD_NAMES)),
        gamma: maybe(num),
        lambda: maybe(num),
        rMs: maybe(num),
        normalize: maybe(fc.constantFrom('meanStd', 'mean', 'none')),
        variant: maybe(fc.constantFrom('paper', 'released')),
        omega: maybe(num),
        groups: fc.oneof(
          { weight: 12, arbitrary: fc.array(fc.array(run(has), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 3 }) },
          { weight: 1, arbitrary: fc.anything() },
        ),
      },
      { requiredKeys: ['groups'] },
    ),
  );
  const request = wellTyped.map((o) => JSON.parse(JSON.stringify(o)) as unknown); // as a JSON file would hold it
  const input = fc.oneof(
    { weight: 6, arbitrary: request },
    { weight: 1, arbitrary: fc.anything() },
    { weight: 1, arbitrary: fc.dictionary(fc.string(), fc.anything()) },
  );
  fc.assert(
    fc.property(input, (json) => {
      r.cases++;
      let req: ReturnType<typeof parseAdvantageRequest>;
      try {
        req = parseAdvantageRequest(json);
      } catch (e) {
        if (!(e instanceof InputError)) return void note(r, 'crashes', `parse ${safeJson(json)} → ${String(e)}`);
        r.rejected++;
        if (STACK.test(e.message)) note(r, 'stackTraces', safeJson(json));
        if (!FIELD_WORDS.some((w) => e.message.includes(w)) && !/unknown field/.test(e.message)) note(r, 'unnamed', `${safeJson(json)} → ${e.message}`);
        return;
      }
      try {
        const result = methodSpec(req.settings.method).estimate(req.batch, req.settings);
        if (!Array.from(result.advantages).every(Number.isFinite)) return void note(r, 'crashes', `non-finite advantages for ${safeJson(json)}`);
        r.accepted++;
      } catch (e) {
        note(r, 'crashes', `estimate ${safeJson(json)} → ${String(e)}`);
      }
    }),
    { numRuns, seed },
  );
  return r;
}

function safeJson(x: unknown): string {
  try {
    return (JSON.stringify(x) ?? String(x)).slice(0, 200);
  } catch {
    return String(x).slice(0, 200);
  }
}
