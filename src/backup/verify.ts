import type { RawSql } from '../db/database.js';
import { totalsOf } from '../modules/aircraft/service.js';
import { TOTALS_FROM_LOGS } from '../modules/aircraft/totals.js';
import { asCounters, evaluateTree, type TreeNode } from '../modules/components/counters.js';
import type { BackupCheck } from './format.js';

/**
 * The figures a restore recomputes from what it loaded and compares (docs/backup.md "Verification"). All of them
 * are read with raw SQL on the connection given (inside the backup's snapshot, or the restore's transaction) and
 * computed by the rules the services use: the aircraft totals rule in SQL (TOTALS_FROM_LOGS), and component counters
 * by `evaluateTree` over the parents' values (an aircraft's totals, a vehicle's totals as `totalsOf` reads them).
 */

type Totals = Map<string, Record<string, number>>;
const inCompanies = (companies: string[] | null, alias: string) => (companies ? ` WHERE ${alias}."companyId" = ANY($1::text[])` : '');
const key = (companyId: string, uid: string) => `${companyId}\u0000${uid}`;

interface AssetRow {
  companyId: string;
  uid: string;
  totals: unknown;
  initialValues: unknown;
  maintenanceTrackingItems: unknown;
}

/** Aircraft totals as stored (what the API answers), or recomputed from the flight logs. */
async function aircraftTotals(sql: RawSql, fromLogs: boolean, companies: string[] | null): Promise<Totals> {
  const rows = await sql.query<AssetRow & { recomputed: unknown }>(
    `SELECT a."companyId", a.uid, a.totals, a."initialValues", a."maintenanceTrackingItems"${fromLogs ? `, ${TOTALS_FROM_LOGS.text} AS recomputed` : ''}
     FROM "Aircraft" a${inCompanies(companies, 'a')}`,
    companies ? [companies] : [],
  );
  return new Map(rows.map((a) => [key(a.companyId, a.uid), totalsOf((fromLogs ? { ...a, totals: a.recomputed } : a) as Parameters<typeof totalsOf>[0])]));
}

async function vehicleTotals(sql: RawSql, companies: string[] | null): Promise<Totals> {
  const rows = await sql.query<AssetRow>(
    `SELECT "companyId", uid, totals, "initialValues", "maintenanceTrackingItems" FROM "Vehicle" v${inCompanies(companies, 'v')}`,
    companies ? [companies] : [],
  );
  return new Map(rows.map((v) => [key(v.companyId, v.uid), totalsOf(v as Parameters<typeof totalsOf>[0])]));
}

/**
 * The current value of every component counter (what the API shows as `counters[].value`), by company and uid,
 * computed from the stored aircraft totals or, with `fromLogs`, from totals recomputed from the flight logs; of
 * `companies`, or of all when null.
 */
export async function componentCounters(sql: RawSql, fromLogs: boolean, companies: string[] | null = null): Promise<BackupCheck['componentCounters']> {
  const aircraft = await aircraftTotals(sql, fromLogs, companies);
  const vehicles = await vehicleTotals(sql, companies);
  const rows = await sql.query<{ companyId: string; uid: string; counters: unknown }>(
    `SELECT "companyId", uid, counters FROM "Component" c${inCompanies(companies, 'c')}`,
    companies ? [companies] : [],
  );
  const byCompany = new Map<string, Map<string, TreeNode>>();
  for (const r of rows) {
    let nodes = byCompany.get(r.companyId);
    if (!nodes) byCompany.set(r.companyId, (nodes = new Map()));
    nodes.set(r.uid, { uid: r.uid, counters: asCounters(r.counters) });
  }
  const out: BackupCheck['componentCounters'] = {};
  for (const [companyId, nodes] of byCompany) {
    const readings = evaluateTree(nodes, (type, uid) => (type === 'aircraft' ? aircraft : vehicles).get(key(companyId, uid)));
    const company: Record<string, Record<string, number>> = (out[companyId] = {});
    for (const [uid, r] of readings) company[uid] = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.value]));
  }
  return out;
}

/** Aircraft whose stored totals differ from the rule recomputed from their flight logs. */
async function totalsMismatches(sql: RawSql): Promise<string[]> {
  const rows = await sql.query<{ companyId: string; uid: string; key: string; stored: string; recomputed: string }>(
    `SELECT a."companyId", a.uid, k.key, COALESCE(a.totals ->> k.key, a."initialValues" ->> k.key, '0') AS stored, r.t ->> k.key AS recomputed
     FROM "Aircraft" a
     CROSS JOIN LATERAL (SELECT ${TOTALS_FROM_LOGS.text} AS t) r
     CROSS JOIN LATERAL jsonb_each(a."maintenanceTrackingItems") k
     WHERE k.value ->> 'type' = 'number'
       AND COALESCE(a.totals ->> k.key, a."initialValues" ->> k.key, '0')::numeric IS DISTINCT FROM (r.t ->> k.key)::numeric
     ORDER BY 1, 2, 3 LIMIT 50`,
  );
  return rows.map((r) => `aircraft ${r.uid} of ${r.companyId}: ${r.key} total is ${r.stored}, its initial value and flight logs make ${r.recomputed}`);
}

/** Components whose childCount is not the number of components fitted to them. */
async function childCountMismatches(sql: RawSql): Promise<string[]> {
  const rows = await sql.query<{ companyId: string; uid: string; childCount: number; fitted: number }>(
    `SELECT c."companyId", c.uid, c."childCount", COALESCE(n.fitted, 0)::int AS fitted
     FROM "Component" c
     LEFT JOIN (SELECT "companyId", "parentUid", count(*) AS fitted FROM "Component" WHERE "parentKind" = 'component' GROUP BY 1, 2) n
       ON n."companyId" = c."companyId" AND n."parentUid" = c.uid
     WHERE c."childCount" <> COALESCE(n.fitted, 0)
     ORDER BY 1, 2 LIMIT 50`,
  );
  return rows.map((r) => `component ${r.uid} of ${r.companyId}: childCount is ${r.childCount}, ${r.fitted} component(s) are fitted to it`);
}

export interface Recomputed {
  mismatches: string[];
  aircraft: number;
  components: number;
  counters: number;
}

/**
 * Recomputes every aircraft total from the flight logs, every component counter from those totals, and every
 * childCount from the tree, and compares them with what is stored and with the counters the backup recorded.
 * Returns what differs (empty when all agree) and what was checked.
 */
export async function recomputeAndCompare(sql: RawSql, recorded: BackupCheck['componentCounters']): Promise<Recomputed> {
  const mismatches = [...(await totalsMismatches(sql)), ...(await childCountMismatches(sql))];
  const now = await componentCounters(sql, true);
  let components = 0;
  let counters = 0;
  for (const companyId of new Set([...Object.keys(now), ...Object.keys(recorded)])) {
    const a = recorded[companyId] ?? {};
    const b = now[companyId] ?? {};
    for (const uid of new Set([...Object.keys(a), ...Object.keys(b)])) {
      components++;
      for (const k of new Set([...Object.keys(a[uid] ?? {}), ...Object.keys(b[uid] ?? {})])) {
        counters++;
        const before = a[uid]?.[k];
        const after = b[uid]?.[k];
        if (before !== after && mismatches.length < 200) {
          mismatches.push(`component ${uid} of ${companyId}: counter ${k} was ${before ?? 'absent'} in the backup, the restored logs make ${after ?? 'absent'}`);
        }
      }
    }
  }
  const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Aircraft"`);
  return { mismatches, aircraft: n, components, counters };
}
