import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Form, Prisma } from '../../generated/prisma/client.js';
import type { ScopedCreate, ScopedPrisma } from '../../db/scoped.js';
import { lockedWrite, type LockTarget } from '../../db/locked.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, invalid, isPlainObject, putFieldError, type FieldError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { PhoneSchema } from '../settings/service.js';
import { BoolParam, parseFilter } from '../../lib/params.js';
import { pickKeys } from '../../lib/keys.js';
import { isUniqueViolation, jsonEqual } from '../../lib/json.js';
import {
  FIELD_TYPE_NAMES,
  SectionShape,
  answerConstraints,
  companionAnswer,
  companionFormat,
  fieldObjectSchemas,
  fieldSchemaDocument,
  fieldTypeDef,
  type AnswerFormat,
  type Field,
  type FieldType,
} from './fields.js';

/**
 * Form templates (docs/contract/api-v1.md §2.8, §4.3; docs/contract/gaps.md §9; docs/forms.md). Owns every rule of a template: the body schema,
 * sections and field objects checked against the field types (fields.ts), field references between fields,
 * per-company code uniqueness, write-only webhook secrets, and the completion schema derived from the fields.
 */
export const FORM_STATUSES = ['active', 'inactive'] as const;
export const SERVER_CONTROLLED = ['uid', 'companyId', 'createdAt', 'updatedAt'] as const;

const text = (what: string, max = 500) =>
  z.string({ error: `${what} must be a string` }).max(max, `${what} is too long (${max} characters at most)`);
const required = (what: string, max = 500) => text(what, max).trim().min(1, `${what} must not be empty`);
const strings = (what: string, max = 200) =>
  z.array(text(`each ${what} entry`), { error: `${what} must be an array of strings` }).max(max, `${what} holds at most ${max} entries`);

export const FormCodeSchema = z
  .string({ error: 'code must be a string' })
  .max(100, 'code is too long (100 characters at most)')
  .regex(/^[a-zA-Z0-9-]+$/, 'code may contain only letters, digits and - (pattern ^[a-zA-Z0-9-]+$)');

const HttpUrl = z
  .string({ error: 'url must be a string' })
  .max(2048, 'url is too long (2048 characters at most)')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'url must be an absolute http or https URL');

/**
 * A `whsec_` secret is the Standard Webhooks form: the standard base64 of the signing key (24 to 64 bytes), which
 * the reference library decodes; anything else after that prefix would sign with a key no receiver can rebuild.
 */
function isUsableSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return true;
  const b64 = secret.slice('whsec_'.length);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return false;
  const bytes = Buffer.from(b64, 'base64');
  return bytes.length >= 24 && bytes.length <= 64 && bytes.toString('base64') === b64;
}

export const WebhookInputSchema = z
  .object({
    url: HttpUrl,
    secret: z
      .string({ error: 'secret must be a string' })
      .min(8, 'secret must be at least 8 characters')
      .max(500, 'secret is too long (500 characters at most)')
      .refine(isUsableSecret, 'a secret starting whsec_ must be followed by the standard base64 of 24 to 64 bytes (the Standard Webhooks form)')
      .nullable()
      .optional()
      .describe('Write-only: signs deliveries (Standard Webhooks). Left out on update: the stored one is kept; null removes it'),
  })
  .strict();

export const NotificationRecipientSchema = z
  .looseObject({
    email: z.email({ error: 'email must be an email address' }).max(320).optional(),
    phone: PhoneSchema('phone').optional(),
    name: text('name').optional(),
  })
  .describe('Free-form; entries with an email receive notification emails, entries with a phone (E.164) an SMS');

export const SectionSchema = z.object(SectionShape).strict();

/** Every writable property of a template (docs/contract/api-v1.md §2.8 CreateFormBody). */
export const FormFieldsSchema = z.object({
  name: required('name'),
  code: FormCodeSchema,
  department: required('department'),
  sections: z.array(z.unknown(), { error: 'sections must be an array' }).min(1, 'sections must hold at least one section').max(100, 'sections holds at most 100 entries'),
  status: z.enum(FORM_STATUSES, { error: `status must be one of ${FORM_STATUSES.join(', ')}` }),
  revision: z.number({ error: 'revision must be a number' }).int('revision must be a whole number').min(0, 'revision must not be negative').max(2_147_483_647, 'revision is too large'),
  revisionDate: text('revisionDate', 100),
  signatories: strings('signatories'),
  dynamicFields: strings('dynamicFields'),
  toolset: text('toolset', 100),
  notification: z.boolean({ error: 'notification must be true or false' }),
  notificationRecipients: z.array(NotificationRecipientSchema, { error: 'notificationRecipients must be an array of objects' }).max(100, 'notificationRecipients holds at most 100 entries'),
  publiclyAvailable: z.boolean({ error: 'publiclyAvailable must be true or false' }),
  publicId: z.string({ error: 'publicId must be a string' }).regex(/^[A-Za-z0-9_-]{4,64}$/, 'publicId must be 4 to 64 letters, digits, _ or -'),
  webhooks: z.array(WebhookInputSchema, { error: 'webhooks must be an array of {url, secret?}' }).max(20, 'webhooks holds at most 20 entries'),
});
type FormFieldName = keyof typeof FormFieldsSchema.shape;
const FORM_FIELDS = Object.keys(FormFieldsSchema.shape) as FormFieldName[];
const REQUIRED: FormFieldName[] = ['name', 'code', 'department', 'sections'];
const COLUMNS = new Set<string>(FORM_FIELDS);

/** Optional core fields may be cleared with null on update. */
const FormPatchSchema = z.object(
  Object.fromEntries(Object.entries(FormFieldsSchema.shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])) as {
    [K in FormFieldName]: z.ZodOptional<z.ZodNullable<(typeof FormFieldsSchema.shape)[K]>>;
  },
);

export const FormFilterSchema = z
  .object({ includeInactive: BoolParam('includeInactive').optional().describe('Include inactive forms (default false)') })
  .strict();
export type FormFilter = z.input<typeof FormFilterSchema>;

/** A stored webhook: `secret` stays in the database and never leaves it (reads show `hasSecret`). */
export interface StoredWebhook {
  url: string;
  secret?: string;
}

/** A type, not an interface: TypeScript takes no interface for Prisma's JSON, not even by a cast (see FormColumns). */
export type Section = {
  name: string;
  description?: string;
  fields: Field[];
};

export interface FormWriteResult {
  uid: string;
  status: 'created' | 'updated' | 'no_changes';
}

/** One answerable key of a form (completion-schema; docs/contract/gaps.md §9). */
export interface AnswerKey {
  name: string;
  key: string;
  label: string;
  type: FieldType | `companion:${string}`;
  format: AnswerFormat;
  required: boolean;
  section: string;
  companionOf?: string;
  references?: 'aircraft' | 'vehicle' | 'user';
  enum?: unknown[];
  min?: number;
  max?: number;
  maxLength?: number;
  precision?: number;
  multiple?: boolean;
  vehicleField?: string;
  assetField?: string;
}

/** A field with its position: what answers and side effects need. */
export interface LocatedField {
  field: Field;
  si: number;
  fi: number;
  section: string;
}

export function sectionsOf(form: Pick<Form, 'sections'>): Section[] {
  return (Array.isArray(form.sections) ? form.sections : []) as unknown as Section[];
}

export function webhooksOf(form: Pick<Form, 'webhooks'>): StoredWebhook[] {
  return (Array.isArray(form.webhooks) ? form.webhooks : []) as unknown as StoredWebhook[];
}

export function locatedFields(form: Pick<Form, 'sections'>): LocatedField[] {
  return sectionsOf(form).flatMap((s, si) => s.fields.map((field, fi) => ({ field, si, fi, section: s.name })));
}

export const storageKey = (si: number, fi: number) => `__s${si}_f${fi}`;

/** Every answerable key of the form: each field, then its companions, in form order. */
export function answerKeys(form: Pick<Form, 'sections'>): AnswerKey[] {
  const out: AnswerKey[] = [];
  for (const { field: f, si, fi, section } of locatedFields(form)) {
    const def = fieldTypeDef(f.type);
    out.push({
      name: f.name,
      key: storageKey(si, fi),
      label: f.label,
      type: f.type,
      format: def.format(f),
      required: f.required,
      section,
      ...(def.references ? { references: def.references } : {}),
      ...answerConstraints(def.answer(f)),
      ...(f.precision !== undefined ? { precision: f.precision } : {}),
      ...(f.multiple !== undefined ? { multiple: f.multiple } : {}),
      ...(f.vehicleField !== undefined ? { vehicleField: f.vehicleField } : {}),
      ...(f.assetField !== undefined ? { assetField: f.assetField } : {}),
    });
    for (const c of f.companions ?? []) {
      out.push({
        name: `${f.name}__${c.name}`,
        key: `${storageKey(si, fi)}__${c.name}`,
        label: c.label ?? c.name,
        type: `companion:${c.type}`,
        format: companionFormat(c.type),
        required: false,
        section,
        companionOf: f.name,
        ...answerConstraints(companionAnswer(c.type)),
      });
    }
  }
  return out;
}

/**
 * A new template's columns: the ones a row cannot do without typed, the others as FormFieldsSchema checked them.
 * Sections are JSON from the request body; their fields keep the UI keys they were sent with, typed `unknown`.
 */
type FormColumns = Record<string, unknown> & Pick<ScopedCreate<'Form'>, 'name' | 'code' | 'department' | 'sections'>;

/** A template's row for read-modify-write (src/db/locked.ts). */
const FORM_ROW: LockTarget<Form> = { table: 'Form', what: 'form', read: (tx, uid) => tx.form.findFirst({ where: { uid } }) };

/**
 * The body checks of create and update (no database): the service runs them, and the REST façade runs them before
 * GraphQL sees a body, so both channels answer the same 400. Keys that are not form fields are kept (extra).
 */
export function checkFormCreate(raw: unknown) {
  if (!isPlainObject(raw)) throw new ValidationError('a form must be a JSON object');
  const errors: FieldError[] = [];
  serverControlled(raw, errors);
  const parsed = FormPatchSchema.safeParse(pickKeys(raw, COLUMNS));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  for (const key of REQUIRED) {
    if (raw[key] === undefined || raw[key] === null) putFieldError(errors, { path: `/${key}`, message: `${key} is required` });
  }
  if (errors.length || !parsed.success) invalid('form', errors);
  return parsed.data;
}

export function checkFormUpdate(raw: unknown) {
  if (!isPlainObject(raw)) throw new ValidationError('a form update must be a JSON object');
  const errors: FieldError[] = [];
  serverControlled(raw, errors);
  const parsed = FormPatchSchema.safeParse(pickKeys(raw, COLUMNS));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  for (const key of REQUIRED) if (raw[key] === null) errors.push({ path: `/${key}`, message: `${key} cannot be removed` });
  if (errors.length || !parsed.success) invalid('form', errors);
  return parsed.data;
}

export class FormService {
  constructor(private readonly db: ScopedPrisma) {}

  fieldSchema() {
    return fieldSchemaDocument();
  }

  async list(filter: FormFilter = {}): Promise<{ data: Form[]; count: number }> {
    const f = parseFilter(FormFilterSchema, filter, 'invalid form query');
    const data = await this.db.form.findMany({
      where: f.includeInactive ? {} : { status: 'active' },
      orderBy: [{ name: 'asc' }, { uid: 'asc' }],
    });
    return { data, count: data.length };
  }

  /** A template by uid (active or inactive), or 404. */
  async get(uid: string): Promise<Form> {
    const row = await this.db.form.findFirst({ where: { uid } });
    if (!row) throw new NotFoundError('form', uid);
    return row;
  }

  /** Templates by uid, for batching (GraphQL completions → form). */
  async findMany(uids: readonly string[]): Promise<Form[]> {
    return this.db.form.findMany({ where: { uid: { in: [...uids] } } });
  }

  async completionSchema(uid: string) {
    const form = await this.get(uid);
    return {
      formId: form.uid,
      code: form.code,
      name: form.name,
      revision: form.revision ?? null,
      status: form.status,
      fields: answerKeys(form),
    };
  }

  async create(raw: unknown): Promise<FormWriteResult> {
    const data = await this.checkCreate(raw);
    const uid = newUid('fm');
    await this.write(this.db, () => this.db.form.create({ data: { uid, ...data } }), data);
    return { uid, status: 'created' };
  }

  async update(uid: string, raw: unknown): Promise<FormWriteResult> {
    const patch = checkFormUpdate(raw);
    if (!isPlainObject(raw)) throw new ValidationError('a form update must be a JSON object'); // (checked above; narrows raw)

    return lockedWrite(this.db, FORM_ROW, uid, async (tx, current) => {
      const next: Record<string, unknown> = {};
      for (const key of FORM_FIELDS) {
        if (!(key in patch)) continue;
        next[key] = patch[key] ?? null;
      }
      if (patch.sections) next.sections = checkSections(patch.sections);
      if (patch.webhooks) next.webhooks = mergeSecrets(patch.webhooks, webhooksOf(current));
      else if (patch.webhooks === null) next.webhooks = [];
      if (patch.signatories === null) next.signatories = [];
      if (patch.dynamicFields === null) next.dynamicFields = [];
      if (patch.publiclyAvailable === null) next.publiclyAvailable = false;
      if (patch.status === null) next.status = 'active';
      if (patch.notificationRecipients === null) next.notificationRecipients = null;
      const extra = { ...((current.extra ?? {}) as Record<string, unknown>) };
      for (const [k, v] of Object.entries(raw)) {
        if (COLUMNS.has(k)) continue;
        if (v === null) delete extra[k];
        else extra[k] = v;
      }
      next.extra = extra;
      if ((next.publiclyAvailable ?? current.publiclyAvailable) === true && !(next.publicId ?? current.publicId)) next.publicId = newPublicId();
      const changed = Object.fromEntries(
        Object.entries(next).filter(([k, v]) => !jsonEqual(v, (current as Record<string, unknown>)[k] ?? (k === 'extra' ? {} : null))),
      );
      if (!Object.keys(changed).length) return { uid, status: 'no_changes' as const };
      await this.write(tx, () => tx.form.updateMany({ where: { uid }, data: changed }), changed, uid);
      return { uid, status: 'updated' as const };
    });
  }

  /** Creates or updates a template by uid (demo, import): the same checks as the API. */
  async upsertTemplate(input: Record<string, unknown> & { uid: string }, pathPrefix = ''): Promise<'created' | 'updated'> {
    const { uid, ...body } = input;
    const existing = await this.db.form.findFirst({ where: { uid } });
    try {
      if (existing) {
        await this.update(uid, body);
        return 'updated';
      }
      const data = await this.checkCreate(body);
      await this.write(this.db, () => this.db.form.create({ data: { uid, ...data } }), data);
      return 'created';
    } catch (e) {
      if (e instanceof ValidationError && pathPrefix) throw new ValidationError(e.message, e.errors?.map((f) => ({ ...f, path: pathPrefix + f.path })));
      throw e;
    }
  }

  private async checkCreate(raw: unknown): Promise<FormColumns> {
    const p = checkFormCreate(raw);
    if (!isPlainObject(raw)) throw new ValidationError('a form must be a JSON object'); // (checked above; narrows raw)
    const data: FormColumns = {
      name: p.name!,
      code: p.code!,
      department: p.department!,
      sections: checkSections(p.sections!) as Prisma.InputJsonValue,
      status: p.status ?? 'active',
      revision: p.revision ?? null,
      revisionDate: p.revisionDate ?? null,
      signatories: p.signatories ?? [],
      dynamicFields: p.dynamicFields ?? [],
      toolset: p.toolset ?? null,
      notification: p.notification ?? null,
      notificationRecipients: p.notificationRecipients ?? null,
      publiclyAvailable: p.publiclyAvailable ?? false,
      publicId: p.publicId ?? null,
      webhooks: mergeSecrets(p.webhooks ?? [], []),
      extra: Object.fromEntries(Object.entries(raw).filter(([k, v]) => !COLUMNS.has(k) && v !== null)),
    };
    if (data.publiclyAvailable && !data.publicId) data.publicId = newPublicId();
    return data;
  }

  /** Runs a write, turning a taken code or publicId into a 409 (checked first; the unique index settles races). */
  private async write(db: ScopedPrisma, fn: () => Promise<unknown>, data: Record<string, unknown>, uid?: string): Promise<void> {
    const code = data.code as string | undefined;
    if (code !== undefined) {
      const other = await db.form.findFirst({ where: { code, ...(uid ? { uid: { not: uid } } : {}) }, select: { uid: true } });
      if (other) throw new ConflictError(`a form with code ${JSON.stringify(code)} already exists (${other.uid})`);
    }
    try {
      await fn();
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const msg = String((e as Error).message);
      if (/publicId/.test(msg)) throw new ConflictError(`publicId ${JSON.stringify(data.publicId)} is taken by another form`);
      throw new ConflictError(`a form with code ${JSON.stringify(code)} already exists`);
    }
  }
}

function serverControlled(raw: Record<string, unknown>, errors: FieldError[]) {
  for (const k of SERVER_CONTROLLED) if (k in raw) errors.push({ path: `/${k}`, message: `${k} is set by the server` });
}

function newPublicId(): string {
  return randomBytes(9).toString('base64url');
}

/** A webhook sent without `secret` keeps the secret stored for the same URL; `secret: null` removes it. */
function mergeSecrets(input: z.output<typeof WebhookInputSchema>[], stored: StoredWebhook[]): StoredWebhook[] {
  return input.map((w) => {
    if (w.secret === null) return { url: w.url };
    if (w.secret !== undefined) return { url: w.url, secret: w.secret };
    const old = stored.find((s) => s.url === w.url)?.secret;
    return old ? { url: w.url, secret: old } : { url: w.url };
  });
}

/**
 * Sections and their field objects against the field types (docs/contract/gaps.md §9): shape, unknown type, missing or wrongly
 * typed property, unique field names, and `vehicleField`/`assetField` naming a field of the right type.
 * Returns the sections as stored (defaults such as `required: false` filled in).
 */
export function checkSections(sections: unknown[]): Section[] {
  const errors: FieldError[] = [];
  const out: Section[] = [];
  const byName = new Map<string, { field: Field; path: string }>();
  sections.forEach((raw, si) => {
    const at = `/sections/${si}`;
    const s = SectionSchema.safeParse(raw);
    if (!s.success) {
      errors.push(...fieldErrorsFromZod(s.error.issues, at));
      return;
    }
    const fields: Field[] = [];
    s.data.fields.forEach((f, fi) => {
      const fp = `${at}/fields/${fi}`;
      if (!isPlainObject(f)) return void errors.push({ path: fp, message: 'a field must be an object' });
      const type = f.type;
      if (typeof type !== 'string' || !(FIELD_TYPE_NAMES as string[]).includes(type)) {
        return void errors.push({
          path: `${fp}/type`,
          message: type === undefined ? 'type is required' : `unknown field type ${JSON.stringify(type)} (one of ${FIELD_TYPE_NAMES.join(', ')})`,
        });
      }
      const parsed = fieldObjectSchemas[type as FieldType].safeParse(f);
      if (!parsed.success) {
        return void errors.push(
          ...fieldErrorsFromZod(parsed.error.issues, fp).map((e) =>
            e.message.startsWith('unknown field') ? { ...e, message: `${e.message.replace('unknown field', 'unknown property')} for a ${type} field (UI-specific settings go in ui)` } : e,
          ),
        );
      }
      const field = parsed.data as Field;
      const problem = fieldTypeDef(field.type).check?.(field);
      if (problem) errors.push({ path: `${fp}/${problem.property}`, message: problem.message });
      const names = new Set<string>();
      for (const [ci, c] of (field.companions ?? []).entries()) {
        if (names.has(c.name)) errors.push({ path: `${fp}/companions/${ci}/name`, message: `companion ${c.name} is given twice` });
        names.add(c.name);
      }
      const dup = byName.get(field.name);
      if (dup) errors.push({ path: `${fp}/name`, message: `field name ${field.name} is already used at ${dup.path}` });
      else byName.set(field.name, { field, path: fp });
      fields.push(field);
    });
    out.push({ ...s.data, fields });
  });
  // references between fields, once every name is known
  sections.forEach((_raw, si) =>
    out[si]?.fields.forEach((f, fi) => {
      const ref = f.type === 'odometer' ? { prop: 'vehicleField', types: ['vehicle'] } : f.type === 'defect' ? { prop: 'assetField', types: ['aircraft', 'vehicle'] } : null;
      if (!ref) return;
      const target = f[ref.prop] as string;
      const found = byName.get(target);
      const path = `/sections/${si}/fields/${fi}/${ref.prop}`;
      if (!found) errors.push({ path, message: `${ref.prop} ${JSON.stringify(target)} is not a field of this form` });
      else if (!ref.types.includes(found.field.type)) {
        errors.push({ path, message: `${ref.prop} ${JSON.stringify(target)} must name a ${ref.types.join(' or ')} field (it is a ${found.field.type} field)` });
      }
    }),
  );
  if (errors.length) invalid('form', errors);
  return out;
}

/** The REST/GraphQL view of a template: webhook secrets replaced by `hasSecret`. */
export function publicWebhooks(form: Pick<Form, 'webhooks'>): { url: string; hasSecret: boolean }[] {
  return webhooksOf(form).map((w) => ({ url: w.url, hasSecret: Boolean(w.secret) }));
}

