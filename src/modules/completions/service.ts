import { rejectFault } from '../../lib/input-faults.js';
import type { z } from 'zod';
import type { Form, FormCompletion, Prisma } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { afterCursor, allPages, toPage } from '../../db/keyset.js';
import { retrying } from '../../db/retry.js';
import { withKeys, type RowQuery } from '../../db/selection.js';
import { ConflictError, NotFoundError, ValidationError, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { PAGE_DEFAULT, PAGE_MAX, instantRange, parseFilter } from '../../lib/params.js';
import {
  CompletionFilterSchema,
  checkCompletionBody,
  type CompletionFilter,
  type CreateCompletionInput,
  type SubmitOptions,
} from './schema.js';
import { fieldTypeDef } from '../forms/fields.js';
import { answerKeys, locatedFields } from '../forms/service.js';
import { submissionLink } from './links.js';
import type { DeliveryService } from '../webhooks/service.js';
import { defectRows, timeZoneOf, type DefectInput } from '../schedule/service.js';
import { VehicleService, planReadings, type ReadingVehicle } from '../vehicles/service.js';
import { writtenAt } from '../../lib/clock.js';
import { writeSubmission, type SubmissionHolds, type SubmissionWrite } from './write.js';
import { answerRows, pointer, resolveAnswers } from './answers.js';
export { resolveAnswers } from './answers.js';

/**
 * Form completions (docs/contract/api-v1.md §2.9, §2.10, §4.3; docs/contract/gaps.md §3, §9; docs/forms.md). Owns the answer rules (by field
 * name or storage key, typed by the field types, references to the company's records) and the side effects of
 * a submission (defect schedule items, odometer readings, outbox rows), written with the completion in one statement.
 */
export interface SideEffects {
  scheduleItemsCreated: number;
  vehiclesUpdated: number;
  warnings: string[];
}
/**
 * What is stored on the completion: the records touched, so GraphQL can show them. A type, not an interface, so
 * that it is taken as Prisma's JSON without a cast (an interface does not match an index signature).
 */
export type StoredSideEffects = {
  scheduleItemsCreated: string[];
  vehiclesUpdated: string[];
  warnings: string[];
};

/** What a notification email says a submission did (docs/notifications.md): the answers, defects and readings. */
export interface SubmissionSummary {
  answers: { label: string; value: string }[];
  defects: { asset: string; description: string; severity: string | null; scheduleItem: string }[];
  readings: { vehicle: string; key: string | null; reading: number; applied: boolean; warning: string | null }[];
}
export interface CompletionWriteResult {
  uid: string;
  status: 'created';
  sideEffects: SideEffects;
}

export interface CompletionPage {
  data: FormCompletion[];
  count: number;
  nextCursor: string | null;
}

export class CompletionService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly actorUserId: string,
    private readonly vehicles: VehicleService,
    private readonly deliveries: DeliveryService,
  ) {}

  /** A completion by uid, or 404; `query` is what a GraphQL request selects (plugin-prisma), else every column. */
  async get(uid: string, query?: RowQuery): Promise<FormCompletion> {
    const row = await this.db.formCompletion.findFirst({ ...query, where: { uid } });
    if (!row) throw new NotFoundError('form completion', uid);
    return row;
  }

  /**
   * A page, newest first. With `query` (a GraphQL request's selection, plugin-prisma: the scalar columns, and the JSON
   * columns and relations it asks for, decision 0007) that is what is read, plus the keyset's; without one, every
   * column. `filter` is checked again (cheap).
   */
  async list(filter: CompletionFilter = {}, query?: RowQuery): Promise<CompletionPage> {
    const f = checkFilter(filter);
    const limit = f.limit ?? PAGE_DEFAULT;
    const where = filterWhere(f);
    if (f.cursor) Object.assign(where, afterCursor('createdAt', f.cursor, 'form-completion'));
    const rows = await this.db.formCompletion.findMany({
      ...withKeys(query, ['uid', 'createdAt']),
      where,
      orderBy: [{ createdAt: 'desc' }, { uid: 'desc' }],
      take: limit + 1,
    });
    return toPage(rows, limit, (r) => r.createdAt, 'form-completion');
  }

  /** Every completion matching the filter, page by page (CSV export). */
  async *iterate(filter: Omit<CompletionFilter, 'limit' | 'cursor'>): AsyncGenerator<FormCompletion[]> {
    yield* allPages((cursor) => this.list({ ...filter, limit: PAGE_MAX, cursor }));
  }

  /**
   * The CSV columns of an export: the completion's own fields, then one column per answer key of the forms the
   * matching completions were made on when the filter names one (formId or code), else the answers as one JSON
   * `data` column. The answer columns are the keys of those forms (as they are now, in form order, a form's new keys
   * after the first's), not of whichever form has the code today: completions made under a code their form has since
   * given up keep their answers. Every header is unique: an answer key that is also a completion column's name in
   * any case (a field called `name` or `Code`) is headed `answers.<key>`, which no field name can be. 400 for a bad
   * filter.
   */
  async exportColumns(filter: Omit<CompletionFilter, 'limit' | 'cursor'>): Promise<{ columns: string[]; answers: string[] | null }> {
    const f = checkFilter(filter);
    if (!f.formId && !f.code) return { columns: [...EXPORT_BASE, 'data'], answers: null };
    const made = await this.db.formCompletion.groupBy({ by: ['formId'], where: filterWhere(f), orderBy: { formId: 'asc' } });
    const forms = made.length
      ? await this.db.form.findMany({ where: { uid: { in: made.map((m) => m.formId) } }, orderBy: { createdAt: 'asc' } })
      : await this.db.form.findMany({ where: { ...(f.formId ? { uid: f.formId } : {}), ...(f.code ? { code: f.code } : {}) } });
    const answers = [...new Set(forms.flatMap((form) => answerKeys(form).map((k) => k.name)))];
    return { columns: [...EXPORT_BASE, ...exportHeaders(answers)], answers };
  }

  /**
   * A submission (docs/contract/api-v1.md §2.10): `input` is checked (CreateFormCompletionCheck: GraphQL's validation
   * runs it; other callers parse with it); each answer is resolved to its field and validated, references checked
   * against the company's records, then the completion and its side effects are written in one statement
   * (./write.ts): planned on the vehicles as read, or, when one of them changed meanwhile, planned again under
   * their locks.
   */
  async create(input: CreateCompletionInput, opts: SubmitOptions = {}): Promise<CompletionWriteResult> {
    const result = await retrying(async () => {
      // what the submission was checked against changed before it was written (the statement checks: ./write.ts):
      // check again from the start, which answers as the change requires (a 400 for an aircraft deleted meanwhile)
      for (let round = 1; ; round++) {
        const done = await this.submitOnce(input, opts);
        if (done) return done;
        if (round >= 5) throw new ConflictError('the form or a record its answers name kept changing while the submission was written: send it again');
      }
    });
    this.deliveries.committed(result.rows.deliveries.length);
    return result.result;
  }

  /** One check and write of a submission (`create`); null when what it was checked against changed meanwhile. */
  private async submitOnce(input: CreateCompletionInput, opts: SubmitOptions) {
    const form = await this.db.form.findFirst({ where: { uid: input.formId } });
    if (opts.submittedBy === 'public') {
      // the form as this submission reads it must still be the public one it came by (docs/contract/gaps.md §7): it
      // may have been withdrawn, deactivated or given another public id since the page's address was looked up
      if (!form || form.status !== 'active' || !form.publiclyAvailable || form.publicId !== opts.publicId) throw new NotFoundError('public form', opts.publicId);
    }
    if (!form) invalid('form completion', [{ path: '/formId', message: `${input.formId} is not a form of your company` }]);
    if (form.status !== 'active') throw new ConflictError(`form ${form.code} is inactive and cannot be completed`);
    const data = resolveAnswers(form, input.answers);
    if (opts.submittedBy === 'public') refusePublicUserAnswers(form, data);
    const userId = opts.submittedBy ?? input.userId ?? this.actorUserId;
    const uid = newUid('fc');
    const link = input.appBaseUrl ? submissionLink(input.appBaseUrl, uid) : undefined;
    const plan = sideEffectsOf(form, data, `Reported on form ${form.code} (${form.name}), completion ${uid}, by ${userId}`, link);
    const formHeld = { uid: form.uid, updatedAt: form.updatedAt, revision: form.revision, publicId: opts.submittedBy === 'public' ? opts.publicId! : null };
    // every record the answers name, read once (the vehicles as readings need them; with the users the acting
    // user's time zone when there are defects: they are due today, in it), then all of it written in one statement
    const attempt = async (db: ScopedPrisma, vehicles: VehicleService, locked: boolean) => {
      const refs = await readReferences(db, vehicles, form, data, input.userId, plan.defects.length ? this.actorUserId : undefined, locked && plan.readings.length > 0);
      const written = this.submission({ form, data, plan, refs, uid, userId, input, holds: { form: formHeld, aircraft: refs.aircraft, vehicles: refs.named } });
      const outcome = await writeSubmission(db, written.rows, !locked);
      return outcome === 'written' ? written : outcome;
    };
    // with an Idempotency-Key, the transaction at once: outside one the claim commits with the statement
    // (db.commitsWithHook) even when the statement writes nothing (what it was checked against changed), and a claim
    // must be marked committed only with the write it stands for
    const first = this.db.commitsWithHook ? 'vehicles-changed' : await attempt(this.db, this.vehicles, false);
    if (first === 'checks-changed') return null;
    if (first !== 'vehicles-changed') return this.written(first);
    // a vehicle changed between the read and the write: read again under its lock, in a transaction, which is rolled
    // back (the claim's mark with it) when what the submission was checked against changed meanwhile
    try {
      return this.written(
        await this.db.$transaction(async (tx) => {
          const again = await attempt(tx, new VehicleService(tx), true);
          if (again === 'vehicles-changed') throw new Error("a submission planned under its vehicles' locks was not written");
          if (again === 'checks-changed') throw RECHECK;
          return again;
        }),
      );
    } catch (e) {
      if (e === RECHECK) return null;
      throw e;
    }
  }

  /** A written submission: what this request's loader holds of the vehicles its readings changed is forgotten. */
  private written<T extends { rows: SubmissionWrite }>(done: T): T {
    this.vehicles.forget(done.rows.readings.totals.keys());
    return done;
  }

  /** What a submission writes and answers, from the form, its checked answers and the records they name. */
  private submission(s: {
    form: Form;
    data: Record<string, unknown>;
    plan: ReturnType<typeof sideEffectsOf>;
    refs: References;
    uid: string;
    userId: string;
    input: CreateCompletionInput;
    holds: SubmissionHolds;
  }): { rows: SubmissionWrite; result: CompletionWriteResult } {
    const { form, data, plan, refs, uid, input } = s;
    const readings = planReadings(refs.vehicles, plan.readings);
    const defects = defectRows(plan.defects, refs.actorTimeZone ?? 'UTC');
    const effects: StoredSideEffects = { scheduleItemsCreated: defects.map((d) => d.uid), vehiclesUpdated: [], warnings: [] };
    const summary: SubmissionSummary = { answers: answerRows(form, data), defects: [], readings: [] };
    plan.defects.forEach((d, i) =>
      summary.defects.push({ asset: d.assetUid, description: d.description, severity: d.severity ?? null, scheduleItem: defects[i]!.uid }),
    );
    plan.readings.forEach(({ uid: vehicle, reading }, i) => {
      const r = readings.outcomes[i]!;
      if (r.applied && !effects.vehiclesUpdated.includes(vehicle)) effects.vehiclesUpdated.push(vehicle);
      if (r.warning) effects.warnings.push(r.warning);
      summary.readings.push({ vehicle, key: r.key, reading, applied: r.applied, warning: r.warning ?? null });
    });
    const at = writtenAt();
    const completion = {
      uid,
      formId: form.uid,
      code: form.code,
      name: form.name,
      userId: s.userId,
      submitterName: input.submitterName ?? null,
      data: data as Prisma.InputJsonValue,
      revision: form.revision,
      revisionDate: form.revisionDate,
      signatories: input.signatories ?? [],
      appBaseUrl: input.appBaseUrl ?? null,
      sideEffects: effects,
    };
    return {
      rows: {
        at,
        completion,
        readings,
        defects,
        deliveries: this.deliveries.rowsFor(form, { ...completion, createdAt: at }, summary),
        holds: s.holds,
      },
      result: {
        uid,
        status: 'created',
        sideEffects: { scheduleItemsCreated: defects.length, vehiclesUpdated: effects.vehiclesUpdated.length, warnings: effects.warnings },
      },
    };
  }

  /**
   * A public-form submission (docs/contract/gaps.md §7): only `answers` and `submitterName` (no userId, signatories or links,
   * which an anonymous submitter must not set); the completion's userId and its webhooks' submittedBy are `public`.
   */
  async createPublic(formId: string, publicId: string, raw: unknown): Promise<{ uid: string; status: 'created' }> {
    // what no channel takes (NUL in text, a `__proto__` key): a public submission runs no GraphQL operation, whose
    // policy checks it for every other channel
    rejectFault(raw, 'submission');
    if (!isPlainObject(raw)) throw new ValidationError('a submission must be a JSON object');
    const allowed = new Set(['answers', 'submitterName']);
    const extra = Object.keys(raw).filter((k) => !allowed.has(k));
    if (extra.length) invalid('submission', extra.map((k) => ({ path: `/${k}`, message: `${k} is not accepted on a public form (answers, submitterName)` })));
    const opts: SubmitOptions = { submittedBy: 'public', publicId };
    const r = await this.create(checkCompletionBody({ ...raw, formId }, opts), opts);
    return { uid: r.uid, status: r.status };
  }
}

/** Thrown to roll a submission's transaction back when what it was checked against changed (`submitOnce`). */
const RECHECK = new Error('what the submission was checked against changed: check it again');

export { submissionLink };
export { CompletionFilterSchema, CreateCompletionSchema, CreateFormCompletionCheck, checkCompletionBody, type CompletionFilter, type CreateCompletionInput, type SubmitOptions } from './schema.js';

/** The completion's own columns of a CSV export, in order. */
export const EXPORT_BASE = ['uid', 'createdAt', 'formId', 'code', 'name', 'revision', 'userId', 'submitterName'] as const;
const BASE_LOWER = new Set<string>(EXPORT_BASE.map((c) => c.toLowerCase()));
/** An answer key's header: the key, or `answers.<key>` when a completion column has that name in any case. */
const exportHeaders = (answers: string[]) => answers.map((a) => (BASE_LOWER.has(a.toLowerCase()) ? `answers.${a}` : a));

const checkFilter = (filter: CompletionFilter) => parseFilter(CompletionFilterSchema, filter, 'invalid form-completion query');

function filterWhere(f: z.output<typeof CompletionFilterSchema>): Prisma.FormCompletionWhereInput {
  const where: Prisma.FormCompletionWhereInput = {};
  if (f.formId) where.formId = f.formId;
  if (f.code) where.code = f.code;
  if (f.userId) where.userId = f.userId;
  const time = instantRange(f.startDate, f.endDate);
  if (time) where.createdAt = time;
  return where;
}

/**
 * The side effects a submission asks for (docs/contract/gaps.md §9), in the form's field order: each defect answer
 * a Defect schedule item on the asset its field names, each odometer answer a reading of the vehicle's primary total.
 */
function sideEffectsOf(form: Form, data: Record<string, unknown>, source: string, link: string | undefined) {
  const defects: DefectInput[] = [];
  const readings: { uid: string; reading: number }[] = [];
  const fields = locatedFields(form).map((l) => l.field);
  const typeOf = (name: string) => fields.find((f) => f.name === name)?.type;
  for (const f of fields) {
    const answer = data[f.name];
    if (answer === undefined) continue;
    if (f.type === 'defect') {
      const assetUid = data[f.assetField!] as string;
      const assetType = typeOf(f.assetField!) as 'aircraft' | 'vehicle';
      for (const d of (Array.isArray(answer) ? answer : [answer]) as { description: string; severity?: string }[]) {
        defects.push({ assetType, assetUid, description: d.description, severity: d.severity, source, link });
      }
    }
    if (f.type === 'odometer') readings.push({ uid: data[f.vehicleField!] as string, reading: answer as number });
  }
  return { defects, readings };
}

/**
 * A public form has no user fields (src/modules/forms/service.ts); one stored before that rule takes no user answer
 * from an anonymous submitter, with the same message whatever the id, before any user is read: which ids the company
 * has is not anyone's to test.
 */
function refusePublicUserAnswers(form: Form, data: Record<string, unknown>): void {
  const errors = locatedFields(form)
    .filter(({ field }) => field.type === 'user' && data[field.name] !== undefined)
    .map(({ field }) => ({ path: pointer(field.name), message: `${field.name}: a user field is not answered on a public form` }));
  if (errors.length) invalid('form completion', errors);
}

/**
 * aircraft/vehicle/user answers (and a given userId) must name records of the company; a deleted vehicle does not
 * count. One read per kind named: the vehicles as readings need them (locked when `lockVehicles`), and with the
 * users the acting user (`actor`), whose time zone decides the day defects are due. A submitter without a time zone
 * (the `public` actor of a public form has no user record; a user may have none) takes the company's, the time zone
 * of its maintenance alert settings (PUT /settings/alerts), read only then; a company that saved none is UTC
 * (docs/forms.md "Side effects").
 */
interface References {
  vehicles: Map<string, ReadingVehicle>;
  /** every aircraft and every vehicle the answers name (all found) */
  aircraft: string[];
  named: string[];
  actorTimeZone: string | undefined;
}

async function readReferences(
  db: ScopedPrisma,
  vehicleService: VehicleService,
  form: Form,
  data: Record<string, unknown>,
  userId: string | undefined,
  actor: string | undefined,
  lockVehicles: boolean,
): Promise<References> {
  const wanted = { aircraft: new Set<string>(), vehicle: new Set<string>(), user: new Set<string>() };
  const refs: { name: string; kind: keyof typeof wanted; uid: string }[] = [];
  for (const { field } of locatedFields(form)) {
    const kind = fieldTypeDef(field.type).references;
    const v = data[field.name];
    if (!kind || typeof v !== 'string') continue;
    wanted[kind].add(v);
    refs.push({ name: field.name, kind, uid: v });
  }
  const users = new Set(wanted.user);
  if (userId !== undefined) users.add(userId);
  if (actor !== undefined) users.add(actor);
  const [aircraft, vehicles, userRows] = await Promise.all([
    wanted.aircraft.size ? db.aircraft.findMany({ where: { uid: { in: [...wanted.aircraft] } }, select: { uid: true } }) : [],
    vehicleService.forReadings(wanted.vehicle, lockVehicles),
    users.size ? db.user.findMany({ where: { uid: { in: [...users] } }, select: { uid: true, timezone: true } }) : [],
  ]);
  const found = {
    aircraft: new Set(aircraft.map((r) => r.uid)),
    vehicle: new Set(vehicles.keys()),
    user: new Set(userRows.filter((r) => wanted.user.has(r.uid) || r.uid === userId).map((r) => r.uid)),
  };
  const errors: FieldError[] = refs
    .filter((r) => !found[r.kind].has(r.uid))
    .map((r) => ({ path: pointer(r.name), message: `${r.name}: ${r.uid} is not ${r.kind === 'aircraft' ? 'an aircraft' : `a ${r.kind}`} of your company` }));
  if (userId !== undefined && !found.user.has(userId)) errors.push({ path: '/userId', message: `${userId} is not a user of your company` });
  if (errors.length) invalid('form completion', errors);
  let actorTimeZone: string | undefined;
  if (actor !== undefined) {
    actorTimeZone = await timeZoneOf(db, userRows.find((r) => r.uid === actor));
  }
  return { vehicles, actorTimeZone, aircraft: [...wanted.aircraft], named: [...wanted.vehicle] };
}
