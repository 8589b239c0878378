/**
 * Backend selection inside the training worker, and the watch on the GPU device.
 *
 * The choice logic is src/backend/select.ts with the browser host of src/backend/browser.ts, which works
 * in a dedicated worker as in the page. When the device is lost
 * (driver reset, GPU process crash, or `loseDevice`), `onLost` is called once with the reason.
 */
import { initBackend } from '../backend/browser.ts';
import type { BackendChoice, BackendReport } from '../backend/select.ts';
import { applyTrainingFlags, getWebGpuDevice } from '../backend/webgpu-interop.ts';
import { markOnce, TIMELINE_MARKS } from '../timeline-marks.ts';

export class WorkerBackend {
  private choice: BackendChoice | null = null;
  report: BackendReport | null = null;
  /** Bumped on every selection, so a stale device's `lost` promise is ignored. */
  private watchToken = 0;
  /**
   * The selection under way, if any: selections run one after another. Two at once (the race's prior
   * and a panel's restart asking for it while `init` selects) would initialise tfjs twice, and an op
   * run between the two fails with "Backend … has not yet been initialized" in a panel that did nothing wrong.
   */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly onLost: (reason: string) => void) {}

  /** Selects `choice` unless it is already current (or `force`), and watches a WebGPU device for loss. */
  ensure(choice: BackendChoice, force: boolean): Promise<{ report: BackendReport; changed: boolean }> {
    const next = this.queue.then(() => this.select(choice, force));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async select(choice: BackendChoice, force: boolean): Promise<{ report: BackendReport; changed: boolean }> {
    if (!force && this.report && this.choice === choice) return { report: this.report, changed: false };
    const report = await initBackend(choice);
    this.choice = choice;
    this.report = report;
    const token = ++this.watchToken;
    // The flags the probe times under too (training-flags.ts).
    applyTrainingFlags(report.backend);
    markOnce(TIMELINE_MARKS.backendReady);
    if (report.backend === 'webgpu') {
      getWebGpuDevice().lost.then((info) => {
        if (token === this.watchToken) this.onLost(info.message ? `${info.reason}: ${info.message}` : String(info.reason));
      });
    }
    return { report, changed: true };
  }

  /** Destroys the current GPU device, as a crash would (tests the recovery path). False if not on webgpu. */
  loseDevice(): boolean {
    if (this.report?.backend !== 'webgpu') return false;
    getWebGpuDevice().destroy();
    return true;
  }
}
