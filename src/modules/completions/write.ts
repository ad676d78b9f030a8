import { Prisma } from '../../generated/prisma/client.js';
import type { ScopedCreate, ScopedPrisma } from '../../db/scoped.js';
import { insertRows } from '../../db/insert-rows.js';
import { readingsWrite, type ReadingsPlan } from '../vehicles/readings.js';

/** Everything a submission writes (each part built by the module that owns its rules). */
export interface SubmissionWrite {
  /** when it is written: every row's createdAt (and updatedAt), bound once */
  at: Date;
  completion: ScopedCreate<'FormCompletion'>;
  /** the odometer readings, planned on the vehicles as read (src/modules/vehicles/readings.ts) */
  readings: ReadingsPlan;
  /** defect items (src/modules/schedule/service.ts `defectRows`) */
  defects: ScopedCreate<'ScheduleItem'>[];
  /** outbox rows (src/modules/webhooks/service.ts `rowsFor`) */
  deliveries: ScopedCreate<'WebhookDelivery'>[];
}

/**
 * Writes a submission in ONE SQL statement (one round trip, no interactive transaction; docs/forms.md "How a
 * submission is written"): the vehicles' new totals, the defect items, the completion and its outbox rows, provided
 * every vehicle a reading names is still as the readings were planned on (`compare`; see `readingsWrite`). When one
 * changed (another reading, an edit, a delete), nothing is written and false comes back: the caller plans again
 * under the vehicles' locks. Without `compare` the caller holds those locks (in its transaction). One statement is
 * atomic: all of it is written or, on any error, none.
 */
export async function writeSubmission(db: ScopedPrisma, w: SubmissionWrite, compare: boolean): Promise<boolean> {
  const when = Prisma.sql`(SELECT ok FROM go)`;
  const readings = w.readings.seen.length ? readingsWrite(w.readings, compare) : null;
  const ctes: Prisma.Sql[] = readings
    ? [
        Prisma.sql`locked AS (${readings.lock})`,
        Prisma.sql`go AS (SELECT (SELECT count(*) FROM locked) = ${readings.expected} AS ok)`,
      ]
    : [Prisma.sql`go AS (SELECT true AS ok)`];
  const parts: [string, Prisma.Sql | null][] = [
    ['vehicles', readings?.update(when) ?? null],
    ['defects', insertRows('ScheduleItem', w.defects, when, { createdAt: w.at, updatedAt: w.at })],
    ['completion', insertRows('FormCompletion', [w.completion], when, { createdAt: w.at, updatedAt: w.at })],
    ['deliveries', insertRows('WebhookDelivery', w.deliveries, when, { createdAt: w.at })],
  ];
  for (const [name, sql] of parts) if (sql) ctes.push(Prisma.sql`${Prisma.raw(name)} AS (${sql})`);
  const [r] = await db.$queryRaw<{ ok: boolean }[]>`WITH ${Prisma.join(ctes, ', ')} SELECT ok FROM go`;
  return r?.ok === true;
}
