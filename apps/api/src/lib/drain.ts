// Taking an API instance out of service without losing a request. Restarts usually lose POSTs on
// kept-alive connections: a proxy writes a request to a connection at the moment the server closes
// it, and cannot resend it (it may have been received). So nothing here closes a connection a
// proxy may still write to: the listening socket closes (new connections are refused, which a
// proxy passes on to another instance, the request never having left it), every answer from now
// on says `Connection: close` (the caller's hook), and an idle connection is left to its client,
// which closes it after its own keep-alive (nginx: 4 s in deploy/nginx/ejdesk.conf). Only those
// still idle after `idleMs` are closed here; a connection in use is never cut before `boundMs`.
import { Server } from 'node:net';
import type { Server as HttpServer } from 'node:http';

/** Resolves true once every connection has ended, false when `boundMs` passed first (those left are then closed). */
export async function drainConnections(server: HttpServer, { idleMs, boundMs }: { idleMs: number; boundMs: number }): Promise<boolean> {
  // net.Server's own close: http.Server's (Node 19+) would also close the idle connections at once.
  const ended = new Promise<true>((resolve) => Server.prototype.close.call(server, () => resolve(true)));
  let sweep: ReturnType<typeof setInterval> | undefined;
  const idlePassed = setTimeout(() => {
    // Answers begun before the drain still kept their connection alive: closed as they go idle.
    sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.closeIdleConnections();
  }, idleMs);
  let bound: ReturnType<typeof setTimeout> | undefined;
  const overdue = new Promise<false>((resolve) => (bound = setTimeout(() => resolve(false), boundMs)));
  try {
    const drained = await Promise.race([ended, overdue]);
    // Past the bound: whatever is still open (a client that never reads, never closes) is cut.
    if (!drained) server.closeAllConnections();
    return drained;
  } finally {
    clearTimeout(idlePassed);
    clearInterval(sweep);
    clearTimeout(bound);
  }
}
