import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/database.js';

/**
 * Prometheus metrics (GET /metrics, bearer METRICS_TOKEN when set): requests and latency by route and status,
 * GraphQL operations by type, delivery outcomes, the database pool, and Node's defaults (event-loop lag, memory).
 * Route labels are route templates (`/api/v1/aircraft/{id}`), never raw paths, so label sets stay bounded.
 */
export function createMetrics(database: Database) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const requests = new Counter({ name: 'fleetops_http_requests_total', help: 'HTTP requests', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'fleetops_http_request_duration_seconds',
    help: 'HTTP request latency until the response starts',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const graphql = new Counter({ name: 'fleetops_graphql_operations_total', help: 'GraphQL operations by type', labelNames: ['type'], registers: [registry] });
  const deliveries = new Counter({ name: 'fleetops_deliveries_total', help: 'Webhook and email delivery outcomes', labelNames: ['channel', 'status'], registers: [registry] });
  new Gauge({
    name: 'fleetops_db_pool_clients',
    help: 'Database pool clients by state (PostgreSQL)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = database.poolStats?.();
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  return {
    registry,
    request(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    graphqlOperation: (type: string) => graphql.inc({ type }),
    delivery: (channel: string, status: string) => deliveries.inc({ channel, status }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
