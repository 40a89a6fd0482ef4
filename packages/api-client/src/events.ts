// The live events of GET /api/events/, read with fetch so the token travels in the
// Authorization header as on every request (EventSource cannot send one). A dropped stream is
// opened again (1 s doubling to 30 s; after a `reconnect` frame, an instance shutting down, within
// the `retry` it names, at once on another); an expired token is refreshed first. One stream per tab,
// opened by the shell, which refetches the queries marked `meta: { live: true }` on each mail
// event: the screens refresh from it instead of polling.
import { refreshAccessToken } from './http.ts';
import type { MailStall } from './endpoints/mail-flow.ts';
import { sessionStore } from './session.ts';

export interface LiveHandlers {
  /** Mail was stored or processed, or a mailbox changed state (at most about once a second). */
  onMail: () => void;
  /** Whether ingestion has stalled: sent first, then whenever it changes. */
  onStall: (stall: MailStall) => void;
  /** A remote's releases changed (a deploy, canary, promotion or rollback): by its name. */
  onRelease?: (remote: string) => void;
}

/** Read the stream until the returned function is called. */
export function watchLiveEvents(handlers: LiveHandlers, baseUrl = '/api'): () => void {
  const controller = new AbortController();
  let delay = 1000;
  const run = async () => {
    while (!controller.signal.aborted) {
      let response: Response | undefined;
      try {
        response = await fetch(`${baseUrl}/events/`, {
          headers: { authorization: `JWT ${sessionStore.getState().token ?? ''}`, accept: 'text/event-stream' },
          signal: controller.signal,
          cache: 'no-store',
        });
        if (response.status === 401) {
          // Expired: a fresh token and straight back; no session any more: stop.
          if (await refreshAccessToken()) continue;
          return;
        }
        if (response.ok && response.body) {
          delay = 1000;
          const retryMs = await readEvents(response.body, handlers);
          if (retryMs !== undefined) delay = Math.random() * retryMs;
        }
      } catch {
        // the stream dropped (API restart, network): open it again below
      }
      if (controller.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(Math.max(delay, 500) * 2, 30_000);
      // Whatever happened meanwhile was missed: the screens refresh once.
      handlers.onMail();
    }
  };
  void run();
  return () => controller.abort();
}

/** Reads until the stream ends; the `retry` of a `reconnect` frame, when the server sent one. */
async function readEvents(body: ReadableStream<Uint8Array>, handlers: LiveHandlers): Promise<number | undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return undefined;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const type = /^event: ?(.*)$/m.exec(block)?.[1];
      const data = /^data: ?(.*)$/m.exec(block)?.[1];
      if (type === 'mail') handlers.onMail();
      else if (type === 'stall' && data) handlers.onStall(JSON.parse(data) as MailStall);
      else if (type === 'release' && data) handlers.onRelease?.((JSON.parse(data) as { remote: string }).remote);
      else if (type === 'reconnect') return Number(/^retry: ?(\d+)$/m.exec(block)?.[1] ?? 1000);
    }
  }
}
