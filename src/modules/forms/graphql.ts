import { z } from 'zod';
import type { Form } from '../../generated/prisma/client.js';
import { builder } from '../../graphql/builder.js';
import { pageFields, stripNulls } from '../../graphql/common.js';
import type { Page } from '../../db/keyset.js';
import { argsFromSchema } from '../../graphql/inputs.js';
import { REST_PAGE, jsonOf, restSpread } from '../../rest/representation.js';
import { CreateFormCheck, FORM_STATUSES, FormFilterSchema, RevisionDoc, SectionDoc, UpdateFormCheck } from './schema.js';
import { publicWebhooks } from './template.js';

/**
 * Form templates on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the object below
 * is the one output definition of a template (docs/contract/api-v1.md §2.8).
 */
export const FormWebhookType = builder.objectRef<{ url: string; hasSecret: boolean }>('FormWebhook').implement({
  description: 'A receiver of form.submitted events. The secret is write-only: reads show whether one is set.',
  fields: (t) => ({
    url: t.exposeString('url'),
    hasSecret: t.exposeBoolean('hasSecret'),
  }),
});

export const FormType = builder.prismaObject('Form', {
  description: 'A form template: sections of typed fields (see formFieldSchema). Completions answer it.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    name: t.exposeString('name'),
    code: t.exposeString('code', { description: 'Unique within the company; letters, digits and -' }),
    department: t.exposeString('department'),
    companyId: t.exposeString('companyId'),
    sections: t.field({
      type: 'JSON',
      description: 'array<{name, description?, fields: field objects}>',
      extensions: jsonOf(z.array(SectionDoc)),
      resolve: (f) => f.sections,
    }),
    status: t.exposeString('status', { description: FORM_STATUSES.join(', ') }),
    revision: t.exposeFloat('revision', { nullable: true, description: 'A whole number (Float for compatibility; REST and OpenAPI: integer)', extensions: jsonOf(RevisionDoc) }),
    revisionDate: t.exposeString('revisionDate', { nullable: true }),
    signatories: t.exposeStringList('signatories'),
    dynamicFields: t.exposeStringList('dynamicFields'),
    toolset: t.exposeString('toolset', { nullable: true }),
    notification: t.exposeBoolean('notification', { nullable: true }),
    notificationRecipients: t.field({
      type: 'JSON',
      nullable: true,
      description: 'array<object>: free-form; entries with an email receive notification emails',
      extensions: jsonOf(z.array(z.record(z.string(), z.unknown()))),
      resolve: (f) => f.notificationRecipients ?? null,
    }),
    publiclyAvailable: t.exposeBoolean('publiclyAvailable'),
    publicId: t.exposeString('publicId', { nullable: true }),
    webhooks: t.field({ type: [FormWebhookType], resolve: (f) => publicWebhooks(f) }),
    extra: t.field({
      type: 'JSON',
      description: 'Further UI-specific keys of the template, as sent (top-level keys of the template on REST)',
      extensions: restSpread(z.record(z.string(), z.unknown())),
      resolve: (f) => f.extra ?? {},
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const FormListType = builder.objectRef<Page<Form>>('FormList').implement({
  extensions: REST_PAGE,
  fields: (t) => ({
    data: t.field({ type: [FormType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

export const FormWriteStatusEnum = builder.enumType('FormWriteStatus', { values: ['created', 'updated', 'no_changes'] as const });
export const FormWriteResultType = builder.objectRef<{ uid: string; status: 'created' | 'updated' | 'no_changes' }>('FormWriteResult').implement({
  fields: (t) => ({
    uid: t.exposeID('uid'),
    status: t.field({ type: FormWriteStatusEnum, resolve: (r) => r.status }),
  }),
});

builder.queryFields((t) => ({
  formFieldSchema: t.field({
    type: 'JSON',
    description: 'The field types of forms: baseFieldProperties, sectionShape, fieldTypes. Read it before writing a form.',
    resolve: (_r, _a, ctx) => ctx.services.forms.fieldSchema(),
  }),
  forms: t.field({
    type: FormListType,
    description: 'Form templates by name and uid; only active ones unless includeInactive.',
    args: argsFromSchema(t, 'FormFilter', FormFilterSchema, 'form'),
    resolve: (_r, args, ctx) => ctx.services.forms.list(stripNulls(args)),
  }),
  form: t.prismaField({
    type: 'Form',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_q, _r, args, ctx) => ctx.services.forms.get(String(args.id)),
  }),
  formCompletionSchema: t.field({
    type: 'JSON',
    description: 'Every answerable key of a form: name, storage key, format, required, enum/min/max.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.forms.completionSchema(String(args.id)),
  }),
}));

// A template keeps the further keys it is sent (UI-specific), which a GraphQL input object cannot hold: its input
// is JSON, checked by the service's check (Pothos' validation plugin), so the resolver receives the checked value.
builder.mutationFields((t) => ({
  createForm: t.field({
    type: FormWriteResultType,
    description: 'CreateFormBody-shaped JSON: name, code, department and sections required; further keys are kept.',
    args: { input: t.arg({ type: 'JSON', required: true }).validate(CreateFormCheck) },
    resolve: (_r, args, ctx) => ctx.services.forms.create(args.input),
  }),
  updateForm: t.field({
    type: FormWriteResultType,
    description: 'UpdateFormBody-shaped JSON: any CreateFormBody field; null clears an optional one.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: 'JSON', required: true }).validate(UpdateFormCheck) },
    resolve: (_r, args, ctx) => ctx.services.forms.update(String(args.id), args.input),
  }),
}));
