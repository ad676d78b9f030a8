import type { z } from 'zod';
import type { Form, FormCompletion, Prisma } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { afterCursor, allPages, toPage } from '../../db/keyset.js';
import { retrying } from '../../db/retry.js';
import { withKeys, type RowQuery } from '../../db/selection.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { PAGE_DEFAULT, PAGE_MAX, instantRange, parseFilter } from '../../lib/params.js';
import {
  CompletionFilterSchema,
  checkCompletionBody,
  type CompletionFilter,
  type CreateCompletionInput,
  type SubmitOptions,
} from './schema.js';
import { companionAnswer, fieldTypeDef, type Field } from '../forms/fields.js';
import { answerKeys, locatedFields, storageKey } from '../forms/service.js';
import { submissionLink } from './links.js';
import type { DeliveryService } from '../webhooks/service.js';
import { timeZoneOf, type DefectInput, type ScheduleService } from '../schedule/service.js';
import type { ReadingVehicle, VehicleService } from '../vehicles/service.js';

/**
 * Form completions (docs/contract/api-v1.md §2.9, §2.10, §4.3; docs/contract/gaps.md §3, §9; docs/forms.md). Owns the answer rules (by field
 * name or storage key, typed by the field types, references to the company's records) and the side effects of
 * a submission (defect schedule items, odometer readings), written with the completion in one transaction.
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

/** Services bound to a transaction client, so side effects commit or roll back with the completion. */
export type TxServices = (tx: ScopedPrisma) => { schedule: ScheduleService; vehicles: VehicleService };

export class CompletionService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly actorUserId: string,
    private readonly txServices: TxServices,
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
    return toPage(rows, limit, (r) => r.createdAt);
  }

  /** Every completion matching the filter, page by page (CSV export). */
  async *iterate(filter: Omit<CompletionFilter, 'limit' | 'cursor'>): AsyncGenerator<FormCompletion[]> {
    yield* allPages((cursor) => this.list({ ...filter, limit: PAGE_MAX, cursor }));
  }

  /**
   * The CSV columns of an export: the completion's own fields, then one column per answer key of the form when
   * the filter names one (formId or code), else the answers as one JSON `data` column. 400 for a bad filter.
   */
  async exportColumns(filter: Omit<CompletionFilter, 'limit' | 'cursor'>): Promise<{ columns: string[]; answers: string[] | null }> {
    const f = checkFilter(filter);
    const base = ['uid', 'createdAt', 'formId', 'code', 'name', 'revision', 'userId', 'submitterName'];
    if (!f.formId && !f.code) return { columns: [...base, 'data'], answers: null };
    const form = await this.db.form.findFirst({ where: { ...(f.formId ? { uid: f.formId } : {}), ...(f.code ? { code: f.code } : {}) } });
    const answers = form ? answerKeys(form).map((k) => k.name) : [];
    return { columns: [...base, ...answers], answers };
  }

  /**
   * A submission (docs/contract/api-v1.md §2.10): `input` is checked (CreateFormCompletionCheck: GraphQL's validation
   * runs it; other callers parse with it); each answer is resolved to its field and validated, references checked
   * against the company's records, then the completion and its side effects are written in one transaction.
   */
  async create(input: CreateCompletionInput, opts: SubmitOptions = {}): Promise<CompletionWriteResult> {
    let queued = 0;
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        const form = await tx.form.findFirst({ where: { uid: input.formId } });
        if (!form) invalid('form completion', [{ path: '/formId', message: `${input.formId} is not a form of your company` }]);
        if (form.status !== 'active') throw new ConflictError(`form ${form.code} is inactive and cannot be completed`);
        const data = resolveAnswers(form, input.answers);
        const userId = opts.submittedBy ?? input.userId ?? this.actorUserId;
        const services = this.txServices(tx);
        const uid = newUid('fc');
        const link = input.appBaseUrl ? submissionLink(input.appBaseUrl, uid) : undefined;
        const plan = sideEffectsOf(form, data, `Reported on form ${form.code} (${form.name}), completion ${uid}, by ${userId}`, link);
        // every record the answers name, read once: the vehicles locked when a reading applies to them, the acting
        // user's time zone with the users when there are defects (they are due today, in it)
        const refs = await readReferences(tx, services.vehicles, form, data, input.userId, plan.defects.length ? this.actorUserId : undefined, plan.readings.length > 0);

        // the side effects first (set-based: each changed vehicle once, the defects in one INSERT), so the completion
        // is written once, with them
        const readings = await services.vehicles.applyReadings(refs.vehicles, plan.readings);
        const itemUids = await services.schedule.createDefects(plan.defects, refs.actorTimeZone);
        const effects: StoredSideEffects = { scheduleItemsCreated: itemUids, vehiclesUpdated: [], warnings: [] };
        const summary: SubmissionSummary = { answers: answerRows(form, data), defects: [], readings: [] };
        plan.defects.forEach((d, i) =>
          summary.defects.push({ asset: d.assetUid, description: d.description, severity: d.severity ?? null, scheduleItem: itemUids[i]! }),
        );
        plan.readings.forEach(({ uid: vehicle, reading }, i) => {
          const r = readings[i]!;
          if (r.applied && !effects.vehiclesUpdated.includes(vehicle)) effects.vehiclesUpdated.push(vehicle);
          if (r.warning) effects.warnings.push(r.warning);
          summary.readings.push({ vehicle, key: r.key, reading, applied: r.applied, warning: r.warning ?? null });
        });
        const row = await tx.formCompletion.create({
          data: {
            uid,
            formId: form.uid,
            code: form.code,
            name: form.name,
            userId,
            submitterName: input.submitterName ?? null,
            data: data as Prisma.InputJsonValue,
            revision: form.revision,
            revisionDate: form.revisionDate,
            signatories: input.signatories ?? [],
            appBaseUrl: input.appBaseUrl ?? null,
            sideEffects: effects,
          },
        });
        queued = await this.deliveries.enqueue(tx, form, row, summary);
        return {
          uid,
          status: 'created' as const,
          sideEffects: {
            scheduleItemsCreated: effects.scheduleItemsCreated.length,
            vehiclesUpdated: effects.vehiclesUpdated.length,
            warnings: effects.warnings,
          },
        };
      }),
    );
    this.deliveries.committed(queued);
    return result;
  }

  /**
   * A public-form submission (docs/contract/gaps.md §7): only `answers` and `submitterName` (no userId, signatories or links,
   * which an anonymous submitter must not set); the completion's userId and its webhooks' submittedBy are `public`.
   */
  async createPublic(formId: string, raw: unknown): Promise<{ uid: string; status: 'created' }> {
    if (!isPlainObject(raw)) throw new ValidationError('a submission must be a JSON object');
    const allowed = new Set(['answers', 'submitterName']);
    const extra = Object.keys(raw).filter((k) => !allowed.has(k));
    if (extra.length) invalid('submission', extra.map((k) => ({ path: `/${k}`, message: `${k} is not accepted on a public form (answers, submitterName)` })));
    const opts: SubmitOptions = { submittedBy: 'public' };
    const r = await this.create(checkCompletionBody({ ...raw, formId }, opts), opts);
    return { uid: r.uid, status: r.status };
  }
}

/** An answer as the email shows it: text as it is, defects as their descriptions, anything else as JSON. */
function answerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const items = Array.isArray(value) ? value : [value];
  if (items.every((v) => isPlainObject(v) && typeof v.description === 'string')) {
    return items.map((v) => `${v.description}${typeof v.severity === 'string' ? ` (${v.severity})` : ''}`).join('; ');
  }
  if (items.every((v) => typeof v === 'string' || typeof v === 'number')) return items.join(', ');
  return JSON.stringify(value);
}

/** The answers in the form's field order, labelled as the form labels them. */
function answerRows(form: Form, data: Record<string, unknown>): SubmissionSummary['answers'] {
  return locatedFields(form)
    .map((l) => l.field)
    .filter((f) => data[f.name] !== undefined && data[f.name] !== null)
    .map((f) => ({ label: typeof f.label === 'string' && f.label ? f.label : f.name, value: answerText(data[f.name]) }));
}

export { submissionLink };
export { CompletionFilterSchema, CreateCompletionSchema, CreateFormCompletionCheck, checkCompletionBody, type CompletionFilter, type CreateCompletionInput, type SubmitOptions } from './schema.js';

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

const pointer = (k: string) => '/answers/' + k.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Answers → `data` keyed by field name (companions `<name>__<companion>`): each key resolved by name or storage
 * key, given once, typed by its field; null is no answer; required fields answered; a field an odometer or
 * defect answer depends on answered too. 400 with every problem's path.
 */
export function resolveAnswers(form: Pick<Form, 'sections'>, answers: Record<string, unknown>): Record<string, unknown> {
  const byKey = new Map<string, { name: string; field: Field; companion?: string }>();
  for (const { field, si, fi } of locatedFields(form)) {
    const entry = { name: field.name, field };
    byKey.set(field.name, entry);
    byKey.set(storageKey(si, fi), entry);
    for (const c of field.companions ?? []) {
      const ce = { name: `${field.name}__${c.name}`, field, companion: c.name };
      byKey.set(ce.name, ce);
      byKey.set(`${storageKey(si, fi)}__${c.name}`, ce);
    }
  }
  const errors: FieldError[] = [];
  const data: Record<string, unknown> = {};
  const sentAs = new Map<string, string>();
  for (const [key, value] of Object.entries(answers)) {
    const target = byKey.get(key);
    if (!target) {
      errors.push({ path: pointer(key), message: `${key} is not a field of this form (see its completion-schema)` });
      continue;
    }
    const first = sentAs.get(target.name);
    if (first !== undefined) {
      errors.push({ path: pointer(key), message: `${target.name} is answered twice (as ${first} and as ${key})` });
      continue;
    }
    sentAs.set(target.name, key);
    if (value === null || value === undefined) {
      if (!target.companion && target.field.required) errors.push({ path: pointer(key), message: `${target.name} is required` });
      continue;
    }
    const schema = target.companion
      ? companionAnswer(target.field.companions!.find((c) => c.name === target.companion)!.type)
      : fieldTypeDef(target.field.type).answer(target.field);
    const r = schema.safeParse(value);
    if (!r.success) {
      for (const e of fieldErrorsFromZod(r.error.issues, pointer(key))) errors.push({ path: e.path, message: `${target.name} ${e.message}` });
      continue;
    }
    if (!target.companion && isBlank(r.data) && target.field.required) {
      errors.push({ path: pointer(key), message: `${target.name} is required` });
      continue;
    }
    data[target.name] = r.data;
  }
  for (const { field } of locatedFields(form)) {
    if (field.required && !sentAs.has(field.name)) errors.push({ path: pointer(field.name), message: `${field.name} is required` });
    const dependsOn = field.type === 'odometer' ? field.vehicleField : field.type === 'defect' ? field.assetField : undefined;
    const hasDefects = field.type === 'defect' ? !isBlank(data[field.name]) : data[field.name] !== undefined;
    if (dependsOn && hasDefects && data[dependsOn] === undefined) {
      errors.push({ path: pointer(dependsOn), message: `${dependsOn} must be answered: ${field.name} applies to it` });
    }
  }
  if (errors.length) invalid('form completion', errors);
  return data;
}

function isBlank(v: unknown): boolean {
  return v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
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
 * aircraft/vehicle/user answers (and a given userId) must name records of the company; a deleted vehicle does not
 * count. One read per kind named: the vehicles as readings need them (locked when `lockVehicles`), and with the
 * users the acting user (`actor`), whose time zone decides the day defects are due.
 */
async function readReferences(
  tx: ScopedPrisma,
  vehicleService: VehicleService,
  form: Form,
  data: Record<string, unknown>,
  userId: string | undefined,
  actor: string | undefined,
  lockVehicles: boolean,
): Promise<{ vehicles: Map<string, ReadingVehicle>; actorTimeZone: string | undefined }> {
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
    wanted.aircraft.size ? tx.aircraft.findMany({ where: { uid: { in: [...wanted.aircraft] } }, select: { uid: true } }) : [],
    vehicleService.forReadings(wanted.vehicle, lockVehicles),
    users.size ? tx.user.findMany({ where: { uid: { in: [...users] } }, select: { uid: true, timezone: true } }) : [],
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
  return { vehicles, actorTimeZone: actor === undefined ? undefined : timeZoneOf(userRows.find((r) => r.uid === actor)) };
}
