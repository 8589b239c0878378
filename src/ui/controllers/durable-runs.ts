/**
 * A reactive controller for durable runs on the page: autosave, resume, and run files.
 *
 * - Autosave: every worker posts its run's state as checkpoint bytes after each completed iteration
 *   (src/worker/training-loop.ts); the latest per panel is kept here and written to IndexedDB
 *   (src/page/run-store.ts) under the race's key (src/page/race-key.ts) at most every AUTOSAVE_MS,
 *   and at once when the page is hidden or left (`visibilitychange`, `pagehide`).
 * - Resume: at load, the saved panels of the race in the URL are handed to the workers, which continue
 *   from them (the default); `resumed` says where, and "start fresh" forgets them.
 * - Run files (src/page/run-file.ts): "Save run" writes the latest state of every panel with the page's
 *   settings; "Open run" reads one, naming what is wrong with a bad file.
 * Storage that is missing or full sets `storageNotice`; training never waits on storage.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { decodeRunFile, encodeRunFile, RUN_FILE_EXTENSION, RunFileError, type RunFile, type RunFilePanel } from '../../page/run-file.ts';
import { RunStore, storageProblem, type SavedPanel } from '../../page/run-store.ts';
import { CheckpointError } from '../../trainer/checkpoint.ts';

/** Longest wait between two autosaves of a panel that has a newer state. */
const AUTOSAVE_MS = 1000;
/** How long the page waits for the store at load before it starts without resuming. */
const OPEN_TIMEOUT_MS = 5000;

export class DurableRuns implements ReactiveController {
  /** The iteration each panel continued from, when the page resumed an autosaved race; else null. */
  resumed: Record<string, number> | null = null;
  /** Why autosave is off or failing ('' while it works). */
  storageNotice = '';
  /** What was wrong with the run file opened last ('' when nothing). */
  fileError = '';
  /** A short note on the last save or open. */
  fileStatus = '';
  /** The latest iteration written to the store, per panel, for the race in effect. */
  autosaved: Record<string, number> = {};
  /** Bumped on every change the page shows. */
  revision = 0;

  private store: Promise<RunStore | null> | null = null;
  private latest = new Map<string, { race: string; iteration: number; bytes: ArrayBuffer }>();
  private dirty = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly onHide = () => {
    if (document.visibilityState === 'hidden') void this.flush();
  };
  private readonly onPageHide = () => void this.flush();

  /**
   * `race`: the key of the race in effect; `settings`: the page's URL query, for run files; `panels`:
   * the panels raced now, in order.
   */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly race: () => string,
    private readonly settings: () => string,
    private readonly panels: () => readonly string[],
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onHide);
    window.addEventListener('pagehide', this.onPageHide);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onHide);
    window.removeEventListener('pagehide', this.onPageHide);
    void this.flush();
  }

  /** The checkpoint bytes to continue per panel for the race in effect (none when nothing is saved or storage fails). */
  async saved(): Promise<Record<string, ArrayBuffer>> {
    const race = this.race();
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), OPEN_TIMEOUT_MS));
    const store = await Promise.race([this.open(), timeout]);
    if (!store) return {};
    let saved: SavedPanel[];
    try {
      saved = await store.load(race);
    } catch (e) {
      this.problem(e, 'reading');
      return {};
    }
    const wanted = this.panels();
    const found = saved.filter((p) => wanted.includes(p.panel));
    if (found.length === 0) return {};
    this.resumed = Object.fromEntries(found.map((p) => [p.panel, p.iteration]));
    this.autosaved = { ...this.resumed };
    this.changed();
    return Object.fromEntries(found.map((p) => [p.panel, p.bytes]));
  }

  /** A worker's latest state: kept, and autosaved soon. */
  checkpoint(panel: string, iteration: number, bytes: ArrayBuffer): void {
    this.latest.set(panel, { race: this.race(), iteration, bytes });
    this.dirty.add(panel);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, AUTOSAVE_MS);
  }

  /** Writes every panel with a newer state than the store's. */
  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const entries: SavedPanel[] = [...this.dirty].flatMap((panel) => {
      const l = this.latest.get(panel);
      return l ? [{ race: l.race, panel, iteration: l.iteration, savedAt: Date.now(), bytes: l.bytes }] : [];
    });
    this.dirty.clear();
    const store = await this.open();
    if (!store) return;
    try {
      await store.put(entries);
      const race = this.race();
      for (const e of entries) if (e.race === race) this.autosaved[e.panel] = e.iteration;
      if (this.storageNotice) this.storageNotice = '';
      this.changed();
    } catch (e) {
      this.problem(e, 'saving');
    }
  }

  /** "Start fresh": forgets the race's saved state (the page then resets training). */
  async startFresh(): Promise<void> {
    const race = this.race();
    this.resumed = null;
    this.autosaved = {};
    for (const [panel, l] of this.latest) if (l.race === race) this.latest.delete(panel);
    this.changed();
    const store = await this.open();
    try {
      await store?.clear(race);
    } catch (e) {
      this.problem(e, 'clearing');
    }
  }

  /** Hides the resume offer (resuming is already in effect). */
  dismissOffer(): void {
    this.resumed = null;
    this.changed();
  }

  /** The run file of every panel's latest state, or a message saying why there is none yet. */
  async runFile(): Promise<{ bytes: ArrayBuffer; name: string } | { error: string }> {
    const race = this.race();
    const panels: RunFilePanel[] = [];
    for (const panel of this.panels()) {
      const l = this.latest.get(panel);
      if (!l || l.race !== race) return { error: `${panel} has no state to save yet: wait for its first iteration` };
      panels.push({ panel, iteration: l.iteration, bytes: l.bytes });
    }
    const bytes = await encodeRunFile(this.settings(), panels);
    const name = `beacon-live-${panels.map((p) => `${p.panel}${p.iteration}`).join('-')}${RUN_FILE_EXTENSION}`;
    this.fileStatus = `Run saved (${panels.map((p) => `${p.panel} at iteration ${p.iteration}`).join(', ')})`;
    this.fileError = '';
    this.changed();
    return { bytes, name };
  }

  /** A run file read and checked, or null with `fileError` saying what is wrong with it. */
  async readRunFile(file: File): Promise<RunFile | null> {
    try {
      const run = await decodeRunFile(await file.arrayBuffer());
      this.fileError = '';
      this.fileStatus = `Opened ${file.name}: ${run.panels.map((p) => `${p.panel} at iteration ${p.iteration}`).join(', ')}`;
      this.resumed = null;
      return run;
    } catch (e) {
      const known = e instanceof RunFileError || e instanceof CheckpointError;
      this.fileError = `Could not open “${file.name}” as a run file: ${known ? e.message : `it could not be read (${e instanceof Error ? e.message : String(e)})`}. Nothing was changed.`;
      this.fileStatus = '';
      return null;
    } finally {
      this.changed();
    }
  }

  /** The store, opened once; null (and a notice) when storage is unavailable. */
  private open(): Promise<RunStore | null> {
    this.store ??= RunStore.open().catch((e: unknown) => {
      this.problem(e, 'opening');
      return null;
    });
    return this.store;
  }

  private problem(e: unknown, doing: string): void {
    const p = storageProblem(e, doing);
    this.storageNotice = `${p.kind === 'full' ? 'Autosave stopped' : 'Autosave is off'}: ${p.message}. Training goes on; use “Save run” to keep this run in a file.`;
    this.changed();
  }

  private changed(): void {
    this.revision++;
    this.host.requestUpdate();
  }
}
