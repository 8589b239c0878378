/**
 * The page's estimator frame: one hidden `<iframe sandbox="allow-scripts">` (no allow-same-origin, so its
 * origin is opaque) whose srcdoc holds its script inline (src/estimator/frame-main.ts) under a content
 * security policy that allows that script (by a nonce), workers and modules from data: URLs, and nothing
 * else: no connection of any kind, no remote script, import or worker. The visitor's estimator runs in a
 * worker the frame starts; from an opaque origin it reaches no IndexedDB, none of the page's caches (WebKit
 * gives the frame an empty CacheStorage of its own; Chromium and Firefox none) and none of the page's
 * BroadcastChannels, and under the policy no network. A srcdoc frame inherits the page's
 * cross-origin embedder policy, so it loads the same with and without cross-origin isolation, and it
 * needs no file: it works offline.
 *
 * Loaded only when a panel's worker first asks for a sandbox (worker-client.ts): the default page loads
 * none of it.
 */
import FRAME_SCRIPT from 'virtual:estimator-frame-script';
import type { FrameSpawn } from './frame-protocol.ts';

/** The frame's policy: its inline script by `nonce`, workers and modules from data: URLs, nothing else. */
export function framePolicy(nonce: string): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}' data:`, 'worker-src data:', "connect-src 'none'", "base-uri 'none'", "form-action 'none'"].join(
    '; ',
  );
}

/** The frame's document: the policy first, then the script it allows. */
export function frameDocument(nonce: string, script: string = FRAME_SCRIPT): string {
  // "</script" inside the script would end the element early.
  const inline = script.replace(/<\/(script)/gi, '<\\/$1');
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${framePolicy(nonce)}"><script nonce="${nonce}">${inline}</script></head><body></body></html>`;
}

const randomNonce = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

let frame: Promise<Window> | null = null;

/** The frame, created on first use; resolves once its script has said it is ready. */
function estimatorFrame(): Promise<Window> {
  frame ??= new Promise<Window>((resolve, reject) => {
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('aria-hidden', 'true');
    iframe.tabIndex = -1;
    iframe.title = 'Your estimator (sandbox)';
    iframe.dataset.estimatorSandbox = '';
    iframe.style.display = 'none';
    const timer = setTimeout(() => {
      window.removeEventListener('message', onReady);
      frame = null;
      iframe.remove();
      reject(new Error("the estimator's sandbox frame did not start within 10 s"));
    }, 10_000);
    const onReady = (event: MessageEvent) => {
      if (event.source === null || event.source !== iframe.contentWindow || (event.data as { type?: unknown })?.type !== 'estimatorFrameReady') return;
      clearTimeout(timer);
      window.removeEventListener('message', onReady);
      resolve(event.source as Window);
    };
    window.addEventListener('message', onReady);
    iframe.srcdoc = frameDocument(randomNonce());
    document.body.append(iframe);
  });
  return frame;
}

/** A new sandbox worker in the frame: the panel worker's ends of its data and control ports. */
export async function connectEstimatorSandbox(): Promise<{ data: MessagePort; control: MessagePort }> {
  const target = await estimatorFrame();
  const data = new MessageChannel();
  const control = new MessageChannel();
  const spawn: FrameSpawn = { type: 'spawn', data: data.port2, control: control.port2 };
  // The frame's origin is opaque ("null"), so no origin but '*' matches it; the message goes to this
  // frame's window alone, and the frame's script is the page's own.
  target.postMessage(spawn, '*', [data.port2, control.port2]);
  return { data: data.port1, control: control.port1 };
}
