import { z } from 'zod';
import { checkedBy, defineRoutes, named } from '../../rest/contract.js';
import { CreateFormCheck, CreateFormSchema, FormFilterSchema, RevisionDoc, UpdateFormCheck, UpdateFormSchema } from './schema.js';

/**
 * REST routes of form templates (docs/contract/api-v1.md §2.8, §4.3; docs/contract/gaps.md §9): declarations only;
 * each runs its GraphQL field, and the body is the REST representation of its GraphQL type (src/rest/facade.ts).
 * The field schema and a form's completion schema are JSON on GraphQL, so their routes declare their documents.
 * A template's input is JSON (its further keys), which GraphQL takes as sent but for `null`: the writes run the
 * service's check on the body first (`accept`), so a `null` body is the check's 400, as any other bad body.
 */
export const CreateFormBody = named('CreateFormBody', CreateFormSchema);
export const UpdateFormBody = named('UpdateFormBody', UpdateFormSchema);
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
    revision: RevisionDoc.optional(),
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
    description: 'Ordered by name, then uid; only active forms unless includeInactive=true. Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: FormFilterSchema,
    status: 200,
    errors: [400],
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
    errors: [404],
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
    accept: checkedBy((b) => CreateFormCheck.parse(b)),
    status: 201,
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
    accept: checkedBy((b) => UpdateFormCheck.parse(b)),
    status: 200,
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
