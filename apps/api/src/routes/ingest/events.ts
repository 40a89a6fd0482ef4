// GET /api/events/: server-sent events for the signed-in user. `stall` first (and whenever it
// changes), then `mail` whenever the ingester stored or processed mail (at most one a second), and
// `reconnect` as the last frame when the instance shuts down or when the user opened more streams
// than EVENT_STREAMS_PER_USER (this being their oldest). A comment every 20 s keeps proxies from
// closing a quiet stream. Authenticated by the header like every route (the client reads the
// stream with fetch, so no token ever travels in a URL).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EndReason, LiveEvent } from '../../lib/live.ts';
import { errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';

const frame = (event: LiveEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
/**
 * The last frame when the instance shuts down: open the stream again (through the proxy, so on
 * another instance) within `retry` ms. Each client waits a random part of it, so the tabs of a
 * restarted instance do not all arrive at once.
 */
const reconnectFrame = 'retry: 2000\nevent: reconnect\ndata: {}\n\n';
/**
 * The last frame of a user's oldest stream when they opened one too many: come back only within
 * 30 s (each client waits a random part of it), so tabs past the limit take turns rather than end
 * each other's streams at once.
 */
const tooManyFrame = 'retry: 30000\nevent: reconnect\ndata: {"reason":"too many streams"}\n\n';
const lastFrame = (reason: EndReason) => (reason === 'closing' ? reconnectFrame : tooManyFrame);

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { live, config } = app.ctx;

  app.get(
    '/',
    { config: { credential: 'user' }, schema: { response: { 200: FileAnswer('text/event-stream'), ...errorResponses } } },
    async (request, reply) => {
      const stall = await live.currentStall();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      // Events that come before the stall frame wait behind it: the stall is always the first frame.
      let early: LiveEvent[] | null = [];
      const unsubscribe = live.subscribe(
        (event) => (early ? early.push(event) : res.write(frame(event))),
        (reason) => res.end(lastFrame(reason)),
        { user: request.user!.id, limit: config.eventStreamsPerUser },
      );
      const heartbeat = setInterval(() => res.write(': still here\n\n'), 20_000);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.raw.on('close', end);
      // Ended by the hub (res.end): no heartbeat is written after it.
      res.on('close', end);
      res.on('error', end);
      // The first stream of an instance makes its LISTEN connection now; the stall frame waits for
      // it, so a client that has the stall hears every mail stored after it.
      await live.listening();
      if (res.writableEnded) return;
      res.write(`retry: 5000\n${frame({ type: 'stall', data: stall })}`);
      for (const event of early) res.write(frame(event));
      early = null;
    },
  );
};
