/**
 * The page's estimator sandbox: a module worker nested in the custom method's training worker. It holds
 * the visitor's module (imported from a Blob URL of its source: same origin, so the page's
 * cross-origin isolation and service worker leave it alone, and it works offline) and answers through
 * the shared core (sandbox-core.ts). No DOM here; the training worker terminates this worker when a
 * call runs over the time limit, which is the only way to stop a synchronous loop.
 */
import { SandboxCore, type SandboxReply, type SandboxRequest } from './sandbox-core.ts';

interface SandboxScope {
  postMessage(message: SandboxReply, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<SandboxRequest>) => void) | null;
}
const scope = self as unknown as SandboxScope;

const core = new SandboxCore({
  url: (source) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' })),
  load: (url) => import(/* @vite-ignore */ url),
});

scope.onmessage = (event) => {
  void core.handle(event.data).then(({ reply, transfer }) => scope.postMessage(reply, transfer));
};
scope.postMessage({ type: 'ready' }, []);
