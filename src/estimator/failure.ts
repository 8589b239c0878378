/**
 * How a visitor's estimator fails: one kind per way it can go wrong, each with a message a visitor can
 * act on (naming the group, run, step or line). The same failure travels from the sandbox worker to the
 * page's panel alert and to the command line's stderr (exit 2), so it is plain data plus an Error class.
 */

export const FAILURE_KINDS = ['load', 'noDefault', 'throw', 'shape', 'nonFinite', 'timeout'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** A failure as it crosses a worker boundary (structured-clone safe). */
export interface FailureData {
  kind: FailureKind;
  message: string;
  /** 1-based line in the visitor's source, where known (throws). */
  line?: number;
}

export class EstimatorError extends Error {
  readonly kind: FailureKind;
  readonly line?: number;
  constructor(data: FailureData) {
    super(data.message);
    this.name = 'EstimatorError';
    this.kind = data.kind;
    if (data.line !== undefined) this.line = data.line;
  }

  toData(): FailureData {
    return { kind: this.kind, message: this.message, ...(this.line === undefined ? {} : { line: this.line }) };
  }
}

/**
 * The 1-based line of the innermost stack frame in the module at `moduleUrl`, or undefined. The
 * module is imported from a data: or blob: URL, so its frames read `<url>:<line>:<column>`.
 */
export function lineInModule(error: unknown, moduleUrl: string): number | undefined {
  const stack = error instanceof Error ? String(error.stack ?? '') : '';
  let from = 0;
  for (;;) {
    const at = stack.indexOf(moduleUrl, from);
    if (at < 0) return undefined;
    const m = /^:(\d+):\d+/.exec(stack.slice(at + moduleUrl.length));
    if (m) return Number(m[1]);
    from = at + moduleUrl.length;
  }
}

/** "TypeError: x is not a function" for an Error, the value itself for anything else thrown. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `${typeof error === 'string' ? error : JSON.stringify(error)}`;
  } catch {
    return String(error);
  }
}

/** The line a failure's message names ("… at line 3: …", "(line 3)"), for the editor's mark. */
export function failureFromMessage(message: string): FailureData {
  const m = /(?:at line |\(line )(\d+)/.exec(message);
  return { kind: 'throw', message, ...(m ? { line: Number(m[1]) } : {}) };
}
