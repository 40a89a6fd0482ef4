// Taking an API instance out of service without losing a request. Restarts usually lose POSTs: a
// proxy writes one to a connection the server is closing, and cannot resend it (it may have been
// received). Two such connections: a kept-alive one the server closes as idle, and a new one still
// in the kernel's accept queue when the listening socket closes (the kernel resets it). So:
// 1. Leave the proxy's rotation while still listening: a request the proxy may resend (any but POST
//    and PATCH) answers 503 (the caller's hook), which nginx passes to another instance and counts
//    as a failure, leaving this one out for its fail_timeout; a POST or PATCH is served. Once one
//    such answer has gone to the proxy (then 0.2 s for it to note it), or after `leaveMs` without.
// 2. Close the listening socket: a new connection is refused, which a proxy passes on, the request
//    never having left it. Every answer says `Connection: close` (the caller's hook).
// 3. Leave an idle connection to its client, which closes it after its own keep-alive (nginx: 4 s
//    in deploy/nginx/ejdesk.conf). Only one idle for `idleMs` since its own last answer's bytes left
//    is ended here, after what it still holds for the client (an answer begun before the drain may
//    end long after it, and its connection is then fresh in the proxy's pool); a connection in use
//    is never cut before `boundMs`.
import { Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

type Connection = { answering: number; idleSince: number };

/** Watches `server`'s connections from now on (call before it listens); `drain` takes it out of service. */
export function drainable(server: HttpServer) {
  const connections = new Map<Socket, Connection>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { answering: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response) => {
    const connection = connections.get(request.socket);
    if (!connection) return;
    connection.answering++;
    response.once('close', () => {
      connection.answering--;
      connection.idleSince = Date.now();
    });
  });
  const closeLongIdle = (idleMs: number) => {
    const now = Date.now();
    for (const [socket, connection] of connections) {
      if (connection.answering > 0) continue;
      // An answer is done when its last bytes are handed to the socket, not when they have left:
      // an export to a slow reader can still be going out. Idle counts from when they have.
      if (socket.writableLength > 0) connection.idleSince = now;
      // Ended, not destroyed: what the kernel still holds for the client reaches it before the
      // close (destroyed, a slow reader's export was cut with a reset).
      else if (now - connection.idleSince >= idleMs && !socket.writableEnded) socket.end();
    }
  };

  /**
   * Resolves true once every connection has ended, false when `boundMs` passed first (those left
   * are then closed). `passedOn()`: how many of a proxy's requests have been answered 503 for it to resend.
   */
  async function drain({ idleMs, boundMs, leaveMs, passedOn }: { idleMs: number; boundMs: number; leaveMs: number; passedOn: () => number }): Promise<boolean> {
    const leaving = Date.now();
    while (passedOn() === 0 && Date.now() - leaving < leaveMs) await sleep(20);
    if (passedOn() > 0) await sleep(200);
    // net.Server's own close: http.Server's (Node 19+) would also close the idle connections at once.
    const ended = new Promise<true>((resolve) => Server.prototype.close.call(server, () => resolve(true)));
    const sweep = setInterval(() => closeLongIdle(idleMs), 100);
    let bound: ReturnType<typeof setTimeout> | undefined;
    const overdue = new Promise<false>((resolve) => (bound = setTimeout(() => resolve(false), boundMs)));
    try {
      const drained = await Promise.race([ended, overdue]);
      // Past the bound: whatever is still open (a client that never reads, never closes) is cut.
      if (!drained) server.closeAllConnections();
      return drained;
    } finally {
      clearInterval(sweep);
      clearTimeout(bound);
    }
  }
  return { drain };
}
