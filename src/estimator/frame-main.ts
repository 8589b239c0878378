/**
 * The estimator frame's own script (inline in its srcdoc, sandbox-frame.ts). For each `spawn` from the
 * page it starts a sandbox worker (frame-worker.ts, from a data: URL: the frame's opaque origin can start
 * no worker from the page's files) and gives it the data port; on the control port it terminates that
 * worker when asked and reports a crash. It answers only its parent.
 */
import type { FrameCommand, FrameNotice, FrameSpawn } from './frame-protocol.ts';

/**
 * frame-worker.ts bundled, as a data: URL, put in by scripts/estimator-frame-plugin.ts. Not a Blob URL:
 * on a cross-origin isolated page (COEP require-corp) WebKit refuses a worker from a Blob URL made by an
 * opaque origin (an `error` event with no message; WebKitGTK 2.50) but starts one from a data: URL, as
 * Chromium and Firefox do, isolated or not.
 */
declare const __ESTIMATOR_FRAME_WORKER_URL__: string;

function spawn({ data, control }: FrameSpawn): void {
  const notify = (notice: FrameNotice) => control.postMessage(notice);
  let worker: Worker;
  try {
    // A classic worker (the bundle is a classic script): it still imports the visitor's module.
    worker = new Worker(__ESTIMATOR_FRAME_WORKER_URL__, { name: 'beacon-live-estimator' });
  } catch (e) {
    notify({ type: 'crash', message: `the estimator's sandbox worker could not start: ${e instanceof Error ? e.message : String(e)}` });
    return;
  }
  worker.onerror = (event) => {
    event.preventDefault();
    notify({ type: 'crash', message: event.message || 'the estimator worker failed to load' });
  };
  worker.onmessageerror = () => notify({ type: 'crash', message: 'a message to the estimator worker could not be read' });
  control.onmessage = (event: MessageEvent<FrameCommand>) => {
    if (event.data.type !== 'terminate') return;
    worker.terminate();
    control.close();
    data.close();
  };
  worker.postMessage({ port: data }, [data]);
}

window.addEventListener('message', (event: MessageEvent<FrameSpawn>) => {
  if (event.source !== window.parent || event.data?.type !== 'spawn') return;
  spawn(event.data);
});
window.parent.postMessage({ type: 'estimatorFrameReady' }, '*');
