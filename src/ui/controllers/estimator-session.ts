/**
 * The page's "Your estimator" state: the code the custom panel runs (`applied`), the code in the editor
 * (`draft`), and code that arrived by link or run file and awaits consent (`pending`). Code the visitor
 * typed runs on Apply without asking; code from elsewhere runs only after "Run this code". The app
 * owns one of these and turns its answers into worker commands; nothing here touches workers or DOM.
 */
import type { ConfigIssue } from '../../config.ts';
import { methodSpec } from '../../methods/registry.ts';
import { raceEntry, type RaceEntryName } from '../../race/entries.ts';
import { decodeEstimatorParam, encodeEstimatorParam, ESTIMATOR_PARAM } from '../../page/estimator-share.ts';
import { DEFAULT_ESTIMATOR_TIMEOUT_S } from '../../estimator/limits.ts';
import type { EstimatorCode } from '../../worker/protocol.ts';

export interface PendingCode {
  source: string;
  origin: 'this link' | 'this run file';
  /** A run file's saved bytes of the panel, to continue once consented. */
  checkpoint: ArrayBuffer | null;
}

/** The entries of `methods` that run the visitor's code. */
export function codeEntries(methods: readonly RaceEntryName[]): RaceEntryName[] {
  return methods.filter((m) => methodSpec(raceEntry(m).method).visitorCode === true);
}

export class EstimatorSession {
  applied: string | null = null;
  draft = '';
  pending: PendingCode | null = null;

  /** Takes the `estimator=` value of the page's URL: the code waits for consent; a bad value is an issue. */
  fromLink(value: string | null, issues: ConfigIssue[]): void {
    if (value === null) return;
    const decoded = decodeEstimatorParam(value);
    if ('error' in decoded) {
      issues.push({ field: ESTIMATOR_PARAM, message: decoded.error });
      return;
    }
    this.pending = { source: decoded.source, origin: 'this link', checkpoint: null };
    this.draft = decoded.source;
  }

  /** What the custom panels' workers get: the applied code, or null (nothing consented to yet). */
  get code(): EstimatorCode | null {
    return this.applied === null ? null : { source: this.applied, timeoutS: DEFAULT_ESTIMATOR_TIMEOUT_S };
  }

  /** Code the visitor typed (Apply): it runs at once. */
  apply(source: string): void {
    this.applied = source;
    this.draft = source;
  }

  /** Code saved in this browser (autosave) is the visitor's own: it runs without asking. */
  restoreSaved(source: string): void {
    if (this.pending) return;
    this.applied = source;
    this.draft = source;
  }

  /** The visitor's answer to the consent dialog; returns the consented code (and its bytes), or null. */
  consent(run: boolean): PendingCode | null {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return null;
    this.draft = pending.source;
    if (!run) return null;
    this.applied = pending.source;
    return pending;
  }

  /** The share link's `estimator=` value, or the message for the page when the code is too long. */
  shareParam(): { value: string | null; note: string } {
    if (this.applied === null) return { value: null, note: '' };
    const encoded = encodeEstimatorParam(this.applied);
    return 'error' in encoded ? { value: null, note: encoded.error } : { value: encoded.value, note: '' };
  }
}
