/**
 * The estimator sandbox of the page, from the custom method's training worker: each sandbox worker lives
 * in the page's estimator frame, an opaque origin with no network (sandbox-frame.ts). A worker cannot
 * make a frame, so it asks the page (a SandboxPortRequest) and gets two ports back: `data` to the sandbox
 * worker and `control` to the frame, which terminates the sandbox worker when a call runs over its limit
 * (the next call starts a fresh one).
 */
import type { FrameCommand, FrameNotice, SandboxPortGrant, SandboxPortRequest } from './frame-protocol.ts';
import type { SandboxReply } from './sandbox-core.ts';
import { EstimatorSandbox, type SandboxWorker } from './sandbox-host.ts';

/** How long the page may take to hand over a sandbox worker's ports (it makes the frame on first use). */
const GRANT_TIMEOUT_MS = 15_000;

const waiting = new Map<number, (grant: SandboxPortGrant) => void>();
let nextRequest = 1;

/** Hands a grant from the page to the sandbox worker that asked for it (training-worker.ts routes it here). */
export function receiveSandboxPorts(grant: SandboxPortGrant): void {
  const deliver = waiting.get(grant.id);
  waiting.delete(grant.id);
  if (deliver) deliver(grant);
  else if ('data' in grant) {
    grant.control.postMessage({ type: 'terminate' } satisfies FrameCommand);
    grant.data.close();
    grant.control.close();
  }
}

function spawnFramedWorker(): SandboxWorker {
  const replyListeners: ((reply: SandboxReply) => void)[] = [];
  const crashListeners: ((message: string) => void)[] = [];
  const crash = (message: string) => {
    for (const listener of crashListeners) listener(message);
  };
  let ports: { data: MessagePort; control: MessagePort } | null = null;
  let terminated = false;
  const id = nextRequest++;
  const timer = setTimeout(() => {
    waiting.delete(id);
    crash(`the page did not start the estimator's sandbox within ${GRANT_TIMEOUT_MS / 1000} s`);
  }, GRANT_TIMEOUT_MS);
  waiting.set(id, (grant) => {
    clearTimeout(timer);
    if (!('data' in grant)) {
      crash(grant.error);
      return;
    }
    if (terminated) {
      receiveSandboxPorts(grant);
      return;
    }
    ports = grant;
    grant.data.onmessage = (event: MessageEvent<SandboxReply>) => {
      for (const listener of replyListeners) listener(event.data);
    };
    grant.data.onmessageerror = () => crash('a message from the estimator worker could not be read');
    grant.control.onmessage = (event: MessageEvent<FrameNotice>) => {
      if (event.data.type === 'crash') crash(event.data.message);
    };
  });
  (self as unknown as { postMessage(message: SandboxPortRequest): void }).postMessage({ type: 'estimatorSandbox', id });
  return {
    // The host posts only after the worker's `ready`, which comes on the data port: the ports are here by then.
    post: (request, transfer) => ports?.data.postMessage(request, transfer),
    onReply: (listener) => replyListeners.push(listener),
    onCrash: (listener) => crashListeners.push(listener),
    terminate: () => {
      terminated = true;
      clearTimeout(timer);
      if (!ports) return;
      ports.control.postMessage({ type: 'terminate' } satisfies FrameCommand);
      ports.data.close();
      ports.control.close();
      ports = null;
    },
  };
}

/** A sandbox for `source`, with a limit of `timeoutS` seconds per call (default 10). */
export function browserEstimatorSandbox(source: string, timeoutS?: number): EstimatorSandbox {
  return new EstimatorSandbox(source, spawnFramedWorker, timeoutS);
}
