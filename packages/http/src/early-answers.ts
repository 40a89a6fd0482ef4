// A request answered before its body was read: a 413 on its length, a 401 or 403 from a hook, a
// body that failed to parse. Closing the connection with the body unread makes the kernel reset it,
// and a client still sending (Node's fetch streaming an upload, a proxy hop forwarding one) sees a
// network error instead of the answer. So the rest of the body is read and thrown away first, as
// nginx's lingering close does; a client still sending after `withinMs` is answered anyway.
import type { IncomingMessage } from 'node:http';

export async function discardUnreadBody(request: IncomingMessage, withinMs = 10_000): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      request.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, withinMs);
    request.on('end', done).on('close', done).on('error', done);
    // Flowing with no reader: each piece is dropped (a proxy's pipe, if any, still gets it).
    request.resume();
  });
}
