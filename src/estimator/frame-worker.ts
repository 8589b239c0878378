/**
 * The estimator sandbox worker, inside the page's estimator frame (an opaque origin, sandbox-frame.ts):
 * it holds the visitor's module (imported from a data: URL of its source) and answers through the shared
 * core (sandbox-core.ts) on the MessagePort the frame hands it first. Its origin is opaque and the frame's
 * content security policy allows no connection, so the visitor's code has no network, no storage and no
 * channel to the page: only this port. Bundled into the frame's script at build (scripts/estimator-frame-plugin.ts).
 */
import { SandboxCore, type SandboxRequest } from './sandbox-core.ts';

const core = new SandboxCore({
  // A data: URL, not a Blob URL: this worker itself comes from a data: URL (frame-main.ts says why), and
  // there WebKit refuses to import a Blob URL the worker made ("Cross-origin script load denied by
  // Cross-Origin Resource Sharing policy"); a data: module loads in all three engines, and a throw's
  // stack frames name its URL with the line, as a Blob URL's do.
  url: (source) => `data:text/javascript,${encodeURIComponent(source)}`,
  load: (url) => import(/* @vite-ignore */ url),
});

self.onmessage = (event: MessageEvent<{ port: MessagePort }>) => {
  self.onmessage = null;
  const port = event.data.port;
  port.onmessage = (request: MessageEvent<SandboxRequest>) => {
    void core.handle(request.data).then(({ reply, transfer }) => port.postMessage(reply, transfer));
  };
  port.postMessage({ type: 'ready' });
};
