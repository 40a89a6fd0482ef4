// What GET /api/metrics (routes/operations/metrics.ts) serves in the Prometheus text format
// (prom-client): requests and latency by route and status, the database pool, exports in flight,
// login throttle refusals, the mail queue, and the process's own figures.
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import { queryRows, type Database } from '@ejdesk/db';
import { sql } from 'drizzle-orm';

export interface ApiMetrics {
  registry: client.Registry;
  throttled: client.Counter<'scope'>;
  exportsRefused: client.Counter;
  evidencePacks: client.Counter;
}

export function createMetrics(database: Database, exportsInFlight: () => number): ApiMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  new client.Gauge({
    name: 'ejdesk_db_pool_connections',
    help: 'Database pool connections by state (in_use, idle, waiting for a connection).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { total, idle, waiting } = database.poolStats();
      this.set({ state: 'in_use' }, total - idle);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new client.Gauge({
    name: 'ejdesk_exports_in_flight',
    help: 'Streamed exports running now.',
    registers: [registry],
    collect() {
      this.set(exportsInFlight());
    },
  });
  new client.Gauge({
    name: 'ejdesk_ingest_queue_depth',
    help: 'Stored messages waiting to be processed by the mail ingester.',
    registers: [registry],
    async collect() {
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from email_sources where processed_at is null`).catch(() => []);
      if (row) this.set(row.n);
    },
  });
  new client.Gauge({
    name: 'ejdesk_ingest_failures_last_day',
    help: 'Messages processed in the last 24 hours whose extraction recorded a failure.',
    registers: [registry],
    async collect() {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from emails where create_at > now() - interval '1 day' and processing_error is not null`,
      ).catch(() => []);
      if (row) this.set(row.n);
    },
  });
  return {
    registry,
    throttled: new client.Counter({
      name: 'ejdesk_login_throttled_total',
      help: 'Login attempts refused by the failed-login throttle, by the limit that refused them.',
      labelNames: ['scope'],
      registers: [registry],
    }),
    exportsRefused: new client.Counter({
      name: 'ejdesk_exports_refused_total',
      help: 'Exports refused because the configured number were already running.',
      registers: [registry],
    }),
    evidencePacks: new client.Counter({
      name: 'ejdesk_evidence_packs_total',
      help: 'Dispute evidence packs (PDF) made for ZIP downloads.',
      registers: [registry],
    }),
  };
}

export function registerMetrics(app: FastifyInstance, metrics: ApiMetrics): void {
  const requests = new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [metrics.registry],
  });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the raw URL: ids and queries would make a series per request.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
}
