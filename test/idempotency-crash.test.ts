// Idempotency-Key when the process running the first request dies (docs/scaling.md, "A process dies"): the records
// such a process leaves behind are made here by hand, from a real request's record, so each case is exact.
// - its write had committed (the claim is marked `committed` in the write's own transaction): never run again, 422
//   idempotency_outcome_lost;
// - it died before its write committed: run again, at once on PostgreSQL (the claim's advisory lock went with the
//   process), after ABANDONED_MS on the embedded database;
// - on PostgreSQL, while another process holds the claim's lock (it is alive and running the request): 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, onPostgres, openTestDatabase, uniq, type TestEnv } from './helpers.js';
import { expectProblem } from './assertions.js';
import { IDEMPOTENCY_LOCK, lockKey } from '../src/graphql/idempotency.js';
import type { Database } from '../src/db/database.js';

let env: TestEnv;
let failSettle = false;
let failLock = false;
beforeAll(async () => {
  env = await createTestEnv({
    onQuery: (sql) => {
      // the statement that stores the answer (settle), refused while failSettle is set
      if (failSettle && /^UPDATE .*"IdempotencyKey".*"result"/s.test(sql)) throw new Error('settle refused by the test');
      // the locked path's aircraft lock (src/db/row-locks.ts) and the claim's release, refused while failLock is set:
      // the process dies before its write
      if (failLock && /^SELECT uid FROM "Aircraft" .*FOR UPDATE/s.test(sql)) throw new Error('lock refused by the test');
      if (failLock && /^DELETE .*"IdempotencyKey"/s.test(sql)) throw new Error('release refused by the test');
    },
  });
});
afterAll(async () => {
  await env?.close();
});

/** `fn` run while the test refuses the statements `what` names (see onQuery above). */
async function whileFailing<T>(what: 'settle' | 'lock', fn: () => Promise<T>): Promise<T> {
  if (what === 'settle') failSettle = true;
  else failLock = true;
  try {
    return await fn();
  } finally {
    failSettle = failLock = false;
  }
}

const post = (key: string, body = flightLogBody({ pax: 1, hobbs: 0.4 })) =>
  env.json('POST', '/api/v1/flight-logs', { body, headers: { 'idempotency-key': key } });
const logCount = async () => (await env.json('GET', '/api/v1/flight-logs?limit=500')).body.count as number;

/** Leaves the key's record as a dead process would have: `state`, no answer, and (embedded) old enough to be abandoned. */
async function leftBehind(key: string, state: 'running' | 'committed') {
  const age = onPostgres ? '1 second' : '10 minutes';
  await env.database.sql.query(
    `UPDATE "IdempotencyKey" SET state = $1, result = NULL, "createdAt" = now() - interval '${age}' WHERE "companyId" = $2 AND key = $3`,
    [state, env.a.id, key],
  );
}

describe('Idempotency-Key after the process running the first request died', () => {
  it('the write marks its claim committed in its own transaction: when the answer cannot be stored, it is not run again', async () => {
    const key = `mark-${uniq()}`;
    // the answer is never stored, as if the process had died right after the write committed
    const r = await whileFailing('settle', () => post(key));
    expect(r.status).toBe(500);
    const [row] = await env.database.sql.query<{ state: string; result: string | null }>(
      `SELECT state, result FROM "IdempotencyKey" WHERE "companyId" = $1 AND key = $2`,
      [env.a.id, key],
    );
    expect(row).toEqual({ state: 'committed', result: null });
    const before = await logCount();
    if (!onPostgres) await leftBehind(key, 'committed'); // embedded: only an old claim counts as abandoned
    expectProblem(await post(key), 422, 'idempotency_outcome_lost');
    expect(await logCount()).toBe(before);
  });

  it('a claim is marked committed only with the write it stands for: a write planned on a stale aircraft is not one', async () => {
    // this process remembers acme-ac-1 as it last saw it (flight-logs/plan.ts); another process changes its log
    // tracking items, so a log planned on the remembered row is written by the locked path, not the first statement
    expect((await post(`warm-${uniq()}`)).status).toBe(201);
    await env.database.sql.query(
      `UPDATE "Aircraft" SET "logTrackingItems" = "logTrackingItems" || '{"remark": {"displayText": "Remark", "type": "string"}}'::jsonb WHERE "companyId" = $1 AND uid = 'acme-ac-1'`,
      [env.a.id],
    );
    const key = `stale-${uniq()}`;
    const before = await logCount();
    // the process dies on the locked path: nothing was written, so its claim may not say it was
    const r = await whileFailing('lock', () => post(key));
    expect(r.status).toBe(500);
    expect(await logCount()).toBe(before);
    const [row] = await env.database.sql.query<{ state: string }>(`SELECT state FROM "IdempotencyKey" WHERE "companyId" = $1 AND key = $2`, [env.a.id, key]);
    expect(row?.state).toBe('running');
    // sent again with the same key once the claim is abandoned, it is carried out, once
    await leftBehind(key, 'running');
    expect((await post(key)).status).toBe(201);
    expect(await logCount()).toBe(before + 1);
  });

  it('its write had committed: not run again, 422 idempotency_outcome_lost (final)', async () => {
    const key = `lost-${uniq()}`;
    expect((await post(key)).status).toBe(201);
    await leftBehind(key, 'committed');
    const before = await logCount();
    const r = await post(key);
    expectProblem(r, 422, 'idempotency_outcome_lost');
    expect(await logCount()).toBe(before);
    expectProblem(await post(key), 422, 'idempotency_outcome_lost');
  });

  it('it died before its write committed: the request runs (again) and answers', async () => {
    const key = `rerun-${uniq()}`;
    const first = await post(key);
    expect(first.status).toBe(201);
    // as if that write had never committed
    expect((await env.json('DELETE', `/api/v1/flight-logs/${first.body.uid}`)).status).toBe(200);
    await leftBehind(key, 'running');
    const before = await logCount();
    const r = await post(key);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.res.headers.get('idempotent-replayed')).toBeNull();
    expect(await logCount()).toBe(before + 1);
    // and from then on it is replayed
    const again = await post(key);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(r.body);
  });

  it.runIf(onPostgres)('PostgreSQL: while another process holds the claim (alive, running it): 409, then it runs once that process is gone', async () => {
    const key = `alive-${uniq()}`;
    const first = await post(key);
    expect(first.status).toBe(201);
    expect((await env.json('DELETE', `/api/v1/flight-logs/${first.body.uid}`)).status).toBe(200);
    await leftBehind(key, 'running');
    const claimLock = lockKey(env.a.id, key);
    // another process: its own connection, holding the claim's lock
    const other: Database = await openTestDatabase();
    try {
      const [held] = await other.session!.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [IDEMPOTENCY_LOCK, claimLock]);
      expect(held.ok).toBe(true);
      const before = await logCount();
      expectProblem(await post(key), 409, 'conflict');
      expect(await logCount()).toBe(before);
    } finally {
      await other.close(); // the process is gone, and its lock with it
    }
    const r = await post(key);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });
});
