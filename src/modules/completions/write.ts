import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY, type ScopedCreate, type ScopedPrisma } from '../../db/scoped.js';
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
  /** what the submission was checked against, which must still hold when it is written (see `writeSubmission`) */
  holds: SubmissionHolds;
}

/**
 * The records a submission was checked against: its form as read (any change to the form, an edit, a delete, its
 * withdrawal from public access, changes what the answers are checked against and where the webhooks go), and the
 * aircraft and vehicles its answers name (a defect item on an aircraft being deleted, which refuses to go while an
 * item refers to it, or on a vehicle being deleted, which nothing new may refer to).
 */
export interface SubmissionHolds {
  form: { uid: string; updatedAt: Date; revision: number | null; publicId: string | null };
  aircraft: string[];
  vehicles: string[];
}

/** Written; not written because a vehicle a reading names changed (plan again under its lock); or because what it was checked against changed (check again). */
export type SubmissionOutcome = 'written' | 'vehicles-changed' | 'checks-changed';

/**
 * The statement's check of `SubmissionHolds`: the form still as read (and still public under the same id for a
 * public submission), every named aircraft still there and every named vehicle still not deleted, each row locked
 * so that none of it changes before the statement commits:
 * - the form `FOR SHARE`, which waits for any transaction changing it (its writers lock it `FOR UPDATE` first too);
 * - the aircraft `FOR KEY SHARE`: only a delete matters, and a delete waits for and is waited for by any lock, where
 *   a stronger lock would hold up flight-log totals updates for nothing;
 * - every named vehicle `FOR UPDATE`, all at once in uid order: the odometer readings' lock (./readings.ts) then
 *   takes its rows again without waiting, so two submissions naming the same vehicles lock them in one order (a
 *   weaker lock on some, then `FOR UPDATE` on others, had two submissions each hold what the other needed).
 * Under READ COMMITTED a locking read that meets a row a conflicting transaction changed waits for it and, once it
 * has committed, checks the row's newest version: the check is made on the rows as they are now.
 */
function holdsCheck(h: SubmissionHolds): { ctes: Prisma.Sql[]; ok: Prisma.Sql } {
  const f = h.form;
  const ctes = [
    Prisma.sql`held_form AS (SELECT f.uid FROM "Form" f WHERE f."companyId" = ${COMPANY} AND f.uid = ${f.uid} AND f.status = 'active'
      AND f."updatedAt" = ${f.updatedAt}::timestamptz AND f.revision IS NOT DISTINCT FROM ${f.revision}::int
      ${f.publicId === null ? Prisma.empty : Prisma.sql`AND f."publiclyAvailable" AND f."publicId" = ${f.publicId}::text`} FOR SHARE)`,
    Prisma.sql`held_aircraft AS (SELECT a.uid FROM "Aircraft" a WHERE a."companyId" = ${COMPANY} AND a.uid = ANY(${h.aircraft}::text[]) ORDER BY a.uid FOR KEY SHARE)`,
    Prisma.sql`held_vehicles AS (SELECT v.uid FROM "Vehicle" v WHERE v."companyId" = ${COMPANY} AND v.uid = ANY(${h.vehicles}::text[]) AND v.status <> 'deleted' ORDER BY v.uid FOR UPDATE)`,
    Prisma.sql`held AS (SELECT (SELECT count(*) FROM held_form) = 1 AND (SELECT count(*) FROM held_aircraft) = ${h.aircraft.length}
      AND (SELECT count(*) FROM held_vehicles) = ${h.vehicles.length} AS ok)`,
  ];
  return { ctes, ok: Prisma.sql`(SELECT ok FROM held)` };
}

/**
 * Writes a submission in ONE SQL statement (one round trip, no interactive transaction; docs/forms.md "How a
 * submission is written"): the vehicles' new totals, the defect items, the completion and its outbox rows, provided
 * what it was checked against still holds (`holds`: the form as read, the aircraft and vehicles its answers name) and
 * every vehicle a reading names is still as the readings were planned on (`compare`; see `readingsWrite`). When the
 * checks no longer hold, nothing is written and `checks-changed` comes back: the caller checks again from the start.
 * When only a vehicle changed (another reading, an edit), nothing is written and `vehicles-changed` comes back: the
 * caller plans again under the vehicles' locks. Without `compare` the caller holds those locks (in its transaction).
 * One statement is atomic: all of it is written or, on any error, none.
 */
export async function writeSubmission(db: ScopedPrisma, w: SubmissionWrite, compare: boolean): Promise<SubmissionOutcome> {
  const when = Prisma.sql`(SELECT ok FROM go)`;
  const readings = w.readings.seen.length ? readingsWrite(w.readings, compare) : null;
  // every named vehicle is locked by the check, first (`go` reads it before the readings' lock): see holdsCheck
  const held = holdsCheck(w.holds);
  const ctes: Prisma.Sql[] = [
    ...held.ctes,
    ...(readings
      ? [
          Prisma.sql`locked AS (${readings.lock})`,
          Prisma.sql`go AS (SELECT ${held.ok} AND (SELECT count(*) FROM locked) = ${readings.expected} AS ok)`,
        ]
      : [Prisma.sql`go AS (SELECT ${held.ok} AS ok)`]),
  ];
  const parts: [string, Prisma.Sql | null][] = [
    ['vehicles', readings?.update(when) ?? null],
    ['defects', insertRows('ScheduleItem', w.defects, when, { createdAt: w.at, updatedAt: w.at })],
    ['completion', insertRows('FormCompletion', [w.completion], when, { createdAt: w.at, updatedAt: w.at })],
    ['deliveries', insertRows('WebhookDelivery', w.deliveries, when, { createdAt: w.at })],
  ];
  for (const [name, sql] of parts) if (sql) ctes.push(Prisma.sql`${Prisma.raw(name)} AS (${sql})`);
  const [r] = await db.$queryRaw<{ ok: boolean; held: boolean }[]>`WITH ${Prisma.join(ctes, ', ')} SELECT (SELECT ok FROM go) AS ok, ${held.ok} AS held`;
  if (r?.ok === true) return 'written';
  return r?.held === false ? 'checks-changed' : 'vehicles-changed';
}
