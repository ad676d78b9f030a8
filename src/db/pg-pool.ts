import pg from 'pg';

/**
 * A pg pool that survives its server dropping connections (restart, failover, pg_terminate_backend): the dropped
 * client emits 'error' (and, while idle, the pool does), which unhandled would crash the process. The query that was
 * using it still fails with the error, and the pool replaces the connection.
 */
export function pgPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
