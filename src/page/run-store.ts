/**
 * The browser's store of autosaved runs: one IndexedDB record per race (race-key.ts) and panel, holding
 * the panel's latest checkpoint bytes (src/trainer/checkpoint.ts; its record history redraws the charts).
 *
 * IndexedDB may be missing (some private modes, a disabled storage API), refuse to open, or be full.
 * Every such failure comes back as a StorageProblem whose message the page shows; training never
 * depends on storage.
 */

const DB_NAME = 'beacon-live';
const DB_VERSION = 1;
const STORE = 'runs';

export interface SavedPanel {
  race: string;
  panel: string;
  iteration: number;
  /** Epoch milliseconds. */
  savedAt: number;
  bytes: ArrayBuffer;
}

/** Storage that is unavailable or full; `message` is for the page. */
export class StorageProblem extends Error {
  constructor(
    readonly kind: 'unavailable' | 'full',
    message: string,
  ) {
    super(message);
  }
}

/** A failed storage operation as a StorageProblem with a message a reader can act on. */
export function storageProblem(e: unknown, doing: string): StorageProblem {
  if (e instanceof StorageProblem) return e;
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  const detail = e instanceof Error || e instanceof DOMException ? e.message : String(e);
  if (name === 'QuotaExceededError') return new StorageProblem('full', `the browser's storage for this page is full (${doing}: QuotaExceededError)`);
  return new StorageProblem('unavailable', `the browser's storage (IndexedDB) is unavailable (${doing}: ${name ? `${name}: ` : ''}${detail})`);
}

const done = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

const committed = (tx: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new DOMException('the transaction was aborted', 'AbortError'));
  });

/** Every key of one race: [race, panel] pairs sort after [race] and before [race, []] (arrays sort after strings). */
const raceRange = (race: string) => IDBKeyRange.bound([race], [race, []]);

export class RunStore {
  private constructor(private readonly db: IDBDatabase) {}

  /** Opens the store; throws a StorageProblem when IndexedDB is missing or refuses. */
  static async open(): Promise<RunStore> {
    try {
      if (typeof indexedDB === 'undefined' || indexedDB === null)
        throw new StorageProblem('unavailable', "the browser's storage (IndexedDB) is unavailable in this window");
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: ['race', 'panel'] });
      return new RunStore(await done(request));
    } catch (e) {
      throw storageProblem(e, 'opening');
    }
  }

  /** The saved panels of `race`. */
  async load(race: string): Promise<SavedPanel[]> {
    try {
      return await done(this.db.transaction(STORE, 'readonly').objectStore(STORE).getAll(raceRange(race)) as IDBRequest<SavedPanel[]>);
    } catch (e) {
      throw storageProblem(e, 'reading');
    }
  }

  /** Saves `panels` (replacing their previous state) in one transaction. */
  async put(panels: readonly SavedPanel[]): Promise<void> {
    try {
      const tx = this.db.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      for (const p of panels) store.put(p);
      await committed(tx);
    } catch (e) {
      throw storageProblem(e, 'saving');
    }
  }

  /** Forgets every panel of `race`. */
  async clear(race: string): Promise<void> {
    try {
      const tx = this.db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete(raceRange(race));
      await committed(tx);
    } catch (e) {
      throw storageProblem(e, 'clearing');
    }
  }
}
