// The floor as a process of its own for bench/memory.ts: bench/floor.ts's handler on a bare pg pool (no Prisma, no
// app modules), bundled by bench/processes.ts and run by plain node, so its resident memory is node + pg + the
// handler. Prints its URL, then serves until killed.
// Usage: node <bundle> <postgres url>
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { RawSql } from '../src/db/database.js';
import { floorHandler } from './floor.js';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
const sql: RawSql = {
  query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
  exec: async (text) => void (await pool.query(text)),
  transaction: () => Promise.reject(new Error('the floor runs no transactions')),
};
const handler = floorHandler(sql);
// a failed statement (a deadlock between two batches touching the same aircraft) answers 500, counted by the bench
const server = http.createServer((req, res) =>
  void Promise.resolve(handler(req, res)).catch(() => void (res.headersSent ? res.destroy() : res.writeHead(500).end())),
);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
