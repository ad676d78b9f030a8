import { repeatedKeys, targetKey } from '../../lib/text.js';
import { z } from 'zod';
import { ValidationError, fieldErrorsFromZod, invalid, isPlainObject, putFieldError, type FieldError } from '../../errors.js';
import { serviceCheck } from '../../graphql/validation.js';
import { BoolParam } from '../../lib/params.js';
import { pageArgs } from '../../db/keyset.js';
import { pickKeys } from '../../lib/keys.js';
import { FIELD_TYPE_NAMES, SectionShape } from './fields.js';
import { PhoneSchema } from '../settings/service.js';

/**
 * The inputs of form templates (docs/contract/api-v1.md §2.8, §4.3; docs/contract/gaps.md §9), each defined once:
 * the REST body documents and MCP schemas are read off these schemas, and the checks below are what every channel
 * runs (Pothos' validation plugin on GraphQL and REST, `XCheck.parse` elsewhere). A template keeps the further
 * (UI-specific) keys it is sent, so its GraphQL input is a JSON object checked by the same check.
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

export const HttpUrl = z
  .string({ error: 'url must be a string' })
  .max(2048, 'url is too long (2048 characters at most)')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'url must be an absolute http or https URL')
  // reads show a webhook's url to every key (GET /forms, the delivery log's target), so it holds no secret: a user
  // and password in it would be sent as Basic auth and shown to read keys; the signing secret is write-only
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.username === '' && u.password === '';
    } catch {
      return true;
    }
  }, 'url must not hold a user name or password (user:password@): reads show the url to every key; use the secret to sign deliveries');

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

/**
 * A template's revision as the documents show it: a whole number (the column is a 32-bit integer; api-v1 §2.8 says
 * only "number"). GraphQL keeps `Float` for the fields that read it (changing an output type would break clients);
 * REST, OpenAPI and MCP say integer.
 */
export const RevisionDoc = z.number().int().min(0).max(2_147_483_647).describe('The template revision: a whole number, 0 or more');

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
  notificationRecipients: z
    .array(NotificationRecipientSchema, { error: 'notificationRecipients must be an array of objects' })
    .max(100, 'notificationRecipients holds at most 100 entries')
    // each mailbox and phone gets one message per submission (gaps.md §13): one written twice is a 400, compared by
    // targetKey, as the alert settings and the dispatcher compare them (an email in any case, a phone as written)
    .superRefine((recipients, ctx) => {
      const keys = recipients.map((r) => [
        ...(typeof r.email === 'string' ? [['email', targetKey.email(r.email)] as const] : []),
        ...(typeof r.phone === 'string' ? [['phone', targetKey.phone(r.phone)] as const] : []),
      ]);
      for (const { index, prop, first } of repeatedKeys(keys)) {
        const what = prop === 'email' ? 'mailbox' : 'phone';
        ctx.addIssue({ code: 'custom', path: [index, prop], message: `${recipients[index]![prop]} is listed twice (as notificationRecipients/${first}): each ${what} once` });
      }
    }),
  publiclyAvailable: z.boolean({ error: 'publiclyAvailable must be true or false' }),
  publicId: z.string({ error: 'publicId must be a string' }).regex(/^[A-Za-z0-9_-]{4,64}$/, 'publicId must be 4 to 64 letters, digits, _ or -'),
  webhooks: z
    .array(WebhookInputSchema, { error: 'webhooks must be an array of {url, secret?}' })
    .max(20, 'webhooks holds at most 20 entries')
    // a webhook is known by its URL: an update keeps the stored secret of the same URL, and a delivery is signed
    // with the secret the form holds for its URL when it is sent (src/modules/webhooks/dispatcher.ts)
    // (one endpoint however its scheme and host are written: compared by targetKey, as the alert settings do)
    .superRefine((hooks, ctx) => {
      for (const { index, first } of repeatedKeys(hooks.map((h) => [['url', targetKey.url(h.url)] as const]))) {
        ctx.addIssue({ code: 'custom', path: [index, 'url'], message: `${hooks[index]!.url} is listed twice (as webhooks/${first}): each webhook URL once` });
      }
    }),
});
export type FormFieldName = keyof typeof FormFieldsSchema.shape;
export const FORM_FIELDS = Object.keys(FormFieldsSchema.shape) as FormFieldName[];
const REQUIRED: FormFieldName[] = ['name', 'code', 'department', 'sections'];
export const COLUMNS = new Set<string>(FORM_FIELDS);

/** Optional core fields may be cleared with null on update. */
const FormPatchSchema = z.object(
  Object.fromEntries(Object.entries(FormFieldsSchema.shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])) as {
    [K in FormFieldName]: z.ZodOptional<z.ZodNullable<(typeof FormFieldsSchema.shape)[K]>>;
  },
);

/** The order of the form list (name, then uid); its cursor continues it (src/db/keyset.ts). */
export const FORM_ORDER = ['name', 'uid'] as const;

export const FormFilterSchema = z
  .object({ includeInactive: BoolParam('includeInactive').optional().describe('Include inactive forms (default false)'), ...pageArgs('form', FORM_ORDER) })
  .strict();
export type FormFilter = z.input<typeof FormFilterSchema>;

/** What a write sends: the checked template fields, and the further keys as sent (null removes one on update). */
export interface CheckedForm {
  fields: FormPatch;
  extra: Record<string, unknown>;
}
export type FormPatch = z.output<typeof FormPatchSchema>;

/** The further keys of a body: everything that is not a template field (server-controlled ones are refused first). */
const extraOf = (raw: Record<string, unknown>, keepNull: boolean) =>
  Object.fromEntries(Object.entries(raw).filter(([k, v]) => !COLUMNS.has(k) && (keepNull || v !== null)));

/**
 * The body checks of create and update (no database). Keys that are not form fields are kept (extra); the
 * sections' field objects are checked against the field types by the service (checkSections). On create the
 * required fields must be given; on update they cannot be removed (null), and a null further key removes it.
 */
export const checkFormCreate = (raw: unknown): CheckedForm => checkForm(raw, false);
export const checkFormUpdate = (raw: unknown): CheckedForm => checkForm(raw, true);

function checkForm(raw: unknown, update: boolean): CheckedForm {
  if (!isPlainObject(raw)) throw new ValidationError(update ? 'a form update must be a JSON object' : 'a form must be a JSON object');
  const errors: FieldError[] = [];
  for (const k of SERVER_CONTROLLED) if (k in raw) errors.push({ path: `/${k}`, message: `${k} is set by the server` });
  const parsed = FormPatchSchema.safeParse(pickKeys(raw, COLUMNS));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  for (const key of REQUIRED) {
    if (update) {
      if (raw[key] === null) errors.push({ path: `/${key}`, message: `${key} cannot be removed` });
    } else if (raw[key] === undefined || raw[key] === null) putFieldError(errors, { path: `/${key}`, message: `${key} is required` });
  }
  if (errors.length || !parsed.success) return invalid('form', errors);
  return { fields: parsed.data, extra: extraOf(raw, update) };
}

// The documents of the bodies (OpenAPI, MCP): the writable fields, sections and field objects as the field types
// describe them (GET /forms/field-schema has each type's properties), further keys allowed.
const FieldObjectDoc = z
  .looseObject({
    name: z.string().describe('Unique within the form; the answer key'),
    label: z.string(),
    type: z.enum(FIELD_TYPE_NAMES),
    required: z.boolean().optional(),
  })
  .describe('A field object; its properties per type are in GET /forms/field-schema');
export const SectionDoc = z.object({ name: z.string(), description: z.string().optional(), fields: z.array(FieldObjectDoc) });

const writable: Record<string, z.ZodType> = {
  ...FormFieldsSchema.shape,
  sections: z.array(SectionDoc).min(1).max(100),
  notificationRecipients: z.array(NotificationRecipientSchema).max(100),
  webhooks: z
    .array(z.object({ url: z.string().describe('Absolute http(s) URL'), secret: z.string().min(8).nullable().optional().describe('Write-only signing secret') }))
    .max(20),
};

export const CreateFormSchema = z
  .looseObject(Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, (REQUIRED as string[]).includes(k) ? v : v.optional()])))
  .describe('name, code, department and sections required; further keys are kept as sent (UI-specific)');
export const UpdateFormSchema = z
  .looseObject(Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, v.nullable().optional()])))
  .describe('Any CreateFormBody field; null clears an optional one (or a further key)');

export const CreateFormCheck = serviceCheck('form', CreateFormSchema, checkFormCreate);
export const UpdateFormCheck = serviceCheck('form', UpdateFormSchema, checkFormUpdate);
