// Taking an API instance out of service without losing a request. Restarts usually lose POSTs on
// kept-alive connections: a proxy writes a request to a connection at the moment the server closes
// it, and cannot resend it (it may have been received). So nothing here closes a connection a
// proxy may still write to: the listening socket closes (new connections are refused, which a
// proxy passes on to another instance, the request never having left it), every answer from now
// on says `Connection: close` (the caller's hook), and an idle connection is left to its client,
// which closes it after its own keep-alive (nginx: 4 s in deploy/nginx/ejdesk.conf). Only one
// idle for `idleMs` since its own last answer is closed here (an answer begun before the drain may
// end long after it, and its connection is then fresh in the proxy's pool); a connection in use is
// never cut before `boundMs`.
import { Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';

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
    for (const [socket, { answering, idleSince }] of connections) if (answering === 0 && now - idleSince >= idleMs) socket.destroy();
  };

  /** Resolves true once every connection has ended, false when `boundMs` passed first (those left are then closed). */
  async function drain({ idleMs, boundMs }: { idleMs: number; boundMs: number }): Promise<boolean> {
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
