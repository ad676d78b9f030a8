import { z } from 'zod';
import { checkedBy, defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { FormFieldsSchema, checkFormCreate, checkFormUpdate, FormFilterSchema, NotificationRecipientSchema } from './service.js';
import { FIELD_TYPE_NAMES } from './fields.js';

/** REST adapter for form templates (docs/contract/api-v1.md §2.8, §4.3; docs/contract/gaps.md §9): declarations only; each route runs its GraphQL field (src/rest/facade.ts). */
const FieldObjectDoc = z
  .looseObject({
    name: z.string().describe('Unique within the form; the answer key'),
    label: z.string(),
    type: z.enum(FIELD_TYPE_NAMES),
    required: z.boolean().optional(),
  })
  .describe('A field object; its properties per type are in GET /forms/field-schema');
const SectionDoc = z.object({ name: z.string(), description: z.string().optional(), fields: z.array(FieldObjectDoc) });
const WebhookDoc = z.object({ url: z.string(), hasSecret: z.boolean().describe('A signing secret is set (secrets are write-only)') });

const s = FormFieldsSchema.shape;
const writable = {
  ...s,
  sections: z.array(SectionDoc).min(1).max(100),
  notificationRecipients: z.array(NotificationRecipientSchema).max(100),
  webhooks: z
    .array(z.object({ url: z.string().describe('Absolute http(s) URL'), secret: z.string().min(8).nullable().optional().describe('Write-only signing secret') }))
    .max(20),
};

export const FormDoc = named(
  'Form',
  z
    .looseObject({
      uid: z.string(),
      name: z.string(),
      code: z.string(),
      department: z.string(),
      companyId: z.string(),
      sections: z.array(SectionDoc),
      status: s.status,
      revision: z.number().optional(),
      revisionDate: z.string().optional(),
      signatories: z.array(z.string()),
      dynamicFields: z.array(z.string()),
      toolset: z.string().optional(),
      notification: z.boolean().optional(),
      notificationRecipients: z.array(z.record(z.string(), z.unknown())).optional(),
      publiclyAvailable: z.boolean(),
      publicId: z.string().optional(),
      webhooks: z.array(WebhookDoc),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .describe('A form template; further UI-specific keys sent on write are returned as sent'),
);
export const FormListDoc = named('FormList', z.object({ data: z.array(FormDoc), count: z.number().int() }));
export const CreateFormBody = named(
  'CreateFormBody',
  z
    .looseObject({
      ...Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, ['name', 'code', 'department', 'sections'].includes(k) ? v : (v as z.ZodType).optional()])),
    })
    .describe('name, code, department and sections required; further keys are kept as sent (UI-specific)'),
);
export const UpdateFormBody = named(
  'UpdateFormBody',
  z
    .looseObject(Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])))
    .describe('Any CreateFormBody field; null clears an optional one (or a further key)'),
);
export const FormWriteResultDoc = named(
  'FormWriteResult',
  z.object({ uid: z.string(), status: z.enum(['created', 'updated', 'no_changes']) }),
);
export const FieldSchemaDoc = named(
  'FormFieldSchema',
  z.looseObject({
    baseFieldProperties: z.record(z.string(), z.unknown()),
    sectionShape: z.record(z.string(), z.unknown()),
    fieldTypes: z.record(
      z.string(),
      z.looseObject({ description: z.string(), answerFormat: z.string(), properties: z.record(z.string(), z.unknown()) }),
    ),
  }),
  'The field types of forms, generated from the validation that form writes go through',
);
export const CompletionSchemaDoc = named(
  'FormCompletionSchema',
  z.object({
    formId: z.string(),
    code: z.string(),
    name: z.string(),
    revision: z.number().nullable(),
    status: z.string(),
    fields: z.array(
      z.looseObject({
        name: z.string().describe('Answer key (preferred)'),
        key: z.string().describe('Storage key: __s{si}_f{fi}, companions __s{si}_f{fi}__{companion}'),
        label: z.string(),
        type: z.string(),
        format: z.enum(['string', 'number', 'boolean', 'array', 'object', 'file']),
        required: z.boolean(),
        section: z.string(),
        companionOf: z.string().optional(),
        enum: z.array(z.unknown()).optional(),
        min: z.number().optional(),
        max: z.number().optional(),
      }),
    ),
  }),
);

/** The REST view of a template: optional fields omitted, further keys back at the top level. */
export function presentForm(f: Record<string, any>) {
  const { extra, ...rest } = f;
  return { ...omitNulls(rest), ...(extra ?? {}) };
}

const idParam = z.object({ id: z.string().min(1).max(128).describe('Form uid') });

export const formRoutes = defineRoutes([
  {
    operationId: 'getFormFieldSchema',
    field: 'Query.formFieldSchema',
    method: 'GET',
    path: '/forms/field-schema',
    tag: 'Forms',
    summary: 'The field types of forms',
    description: 'baseFieldProperties, sectionShape and fieldTypes (each type\u2019s properties, required flags and enumerated values). Read it before creating or updating forms.',
    status: 200,
    response: FieldSchemaDoc,
    errors: [],
  },
  {
    operationId: 'listForms',
    field: 'Query.forms',
    method: 'GET',
    path: '/forms',
    tag: 'Forms',
    summary: 'List form templates',
    description: 'Only active forms unless includeInactive=true.',
    query: FormFilterSchema,
    status: 200,
    response: FormListDoc,
    errors: [400],
    present: (d) => ({ data: d.data.map(presentForm), count: d.count }),
  },
  {
    operationId: 'getForm',
    field: 'Query.form',
    method: 'GET',
    path: '/forms/{id}',
    tag: 'Forms',
    summary: 'Get a form template',
    params: idParam,
    status: 200,
    response: FormDoc,
    errors: [404],
    present: presentForm,
  },
  {
    operationId: 'createForm',
    field: 'Mutation.createForm',
    method: 'POST',
    path: '/forms',
    tag: 'Forms',
    summary: 'Create a form template',
    description: 'Sections and field objects are checked against GET /forms/field-schema; code is unique within the company (409).',
    body: CreateFormBody,
    bodyArg: 'input',
    accept: checkedBy(checkFormCreate),
    status: 201,
    response: FormWriteResultDoc,
    errors: [400, 409],
  },
  {
    operationId: 'updateForm',
    field: 'Mutation.updateForm',
    method: 'PATCH',
    path: '/forms/{id}',
    tag: 'Forms',
    summary: 'Update a form template',
    description: 'Any CreateFormBody field; sections are replaced as a whole. Completions keep the name, code and revision they were made with.',
    params: idParam,
    body: UpdateFormBody,
    bodyArg: 'input',
    accept: checkedBy(checkFormUpdate),
    status: 200,
    response: FormWriteResultDoc,
    errors: [400, 404, 409],
  },
  {
    operationId: 'getFormCompletionSchema',
    field: 'Query.formCompletionSchema',
    method: 'GET',
    path: '/forms/{id}/completion-schema',
    tag: 'Forms',
    summary: 'Every answerable key of a form',
    description: 'Each field and companion with its name, storage key, format, required flag and enum/min/max: what `answers` of POST /form-completions takes.',
    params: idParam,
    status: 200,
    response: CompletionSchemaDoc,
    errors: [404],
  },
]);
