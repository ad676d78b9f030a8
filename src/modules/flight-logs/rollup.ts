import type { ScopedPrisma } from '../../db/scoped.js';

/**
 * The flight-log rollup (prisma FlightLogRollup; docs/aggregation.md): per aircraft, tracking key and 15-minute
 * bucket of `timeDate`, the exact sum of the key's numeric values and how many logs have it; key "" counts every
 * log. Each flight-log write applies its logs here in its own transaction (sign +1 for logs written, -1 for logs
 * removed or replaced), so the rollup always equals the raw sums (a test checks it after mixed writes).
 */
export interface RollupLog {
  aircraftId: string;
  timeDate: Date;
  tracking: unknown;
}

export async function applyRollup(tx: ScopedPrisma, logs: RollupLog[], sign: 1 | -1): Promise<void> {
  if (!logs.length) return;
  const rows = logs.map((l) => ({ a: l.aircraftId, t: l.timeDate.toISOString(), tr: l.tracking ?? {} }));
  await tx.$executeRaw`
    INSERT INTO "FlightLogRollup" ("companyId", "aircraftId", key, bucket, total, n)
    SELECT ${tx.companyId}, x.a, k.key, date_bin('15 minutes', x.t, TIMESTAMPTZ '2000-01-01 00:00:00+00'), ${sign}::int * SUM(k.v), ${sign}::int * COUNT(*)
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(a text, t timestamptz, tr jsonb)
    CROSS JOIN LATERAL (
      SELECT e.key, (e.value)::numeric AS v FROM jsonb_each(x.tr) e WHERE jsonb_typeof(e.value) = 'number'
      UNION ALL SELECT '', 0
    ) k
    GROUP BY x.a, k.key, 4
    ON CONFLICT ("companyId", "aircraftId", key, bucket)
    DO UPDATE SET total = "FlightLogRollup".total + EXCLUDED.total, n = "FlightLogRollup".n + EXCLUDED.n`;
}
