import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { checkedBy, defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { csvCell, csvResponse } from '../../lib/csv.js';
import { CompletionFilterSchema, checkCompletionBody, CreateCompletionSchema } from './service.js';

/** REST adapter for form completions (docs/contract/api-v1.md §2.9, §2.10, §4.3; docs/contract/gaps.md §3): declarations and the CSV export. */
const SideEffectsDoc = z.object({
  scheduleItemsCreated: z.number().int().describe('Defect schedule items created'),
  vehiclesUpdated: z.number().int().describe('Vehicles whose primary total an odometer answer raised'),
  warnings: z.array(z.string()).describe('e.g. an odometer reading below the current total (not applied)'),
});

export const CompletedFormDoc = named(
  'CompletedForm',
  z.object({
    uid: z.string(),
    formId: z.string(),
    code: z.string().describe('Template code at completion time'),
    name: z.string().describe('Form name at completion time'),
    userId: z.string().describe('Submitting user, or `public`'),
    companyId: z.string(),
    data: z.record(z.string(), z.unknown()).describe('Answers keyed by field name (companions <name>__<companion>)'),
    revision: z.number().optional(),
    revisionDate: z.string().optional(),
    signatories: z.array(z.string()),
    submitterName: z.string().optional(),
    appBaseUrl: z.string().optional(),
    sideEffects: SideEffectsDoc,
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
export const CompletedFormPageDoc = named(
  'CompletedFormPage',
  z.object({ data: z.array(CompletedFormDoc), count: z.number().int(), nextCursor: z.string().nullable() }),
);
export const CreateFormCompletionBody = named('CreateFormCompletionBody', CreateCompletionSchema);
export const FormCompletionWriteResultDoc = named(
  'FormCompletionWriteResult',
  z.object({ uid: z.string(), status: z.enum(['created']), sideEffects: SideEffectsDoc }),
);

const presentCompletion = (c: Record<string, unknown>) => omitNulls(c);

async function csvExport(ctx: RequestContext, query: URLSearchParams): Promise<Response> {
  const filter: Record<string, string> = {};
  for (const k of ['formId', 'code', 'userId', 'startDate', 'endDate']) {
    const v = query.get(k);
    if (v !== null) filter[k] = v;
  }
  const { columns, answers } = await ctx.services.completions.exportColumns(filter); // a bad filter is a 400 here
  return csvResponse(
    columns,
    ctx.services.completions.iterate(filter),
    (c) => {
      const data = (c.data ?? {}) as Record<string, unknown>;
      const own = [c.uid, c.createdAt, c.formId, c.code, c.name, c.revision, c.userId, c.submitterName].map(csvCell);
      return answers ? [...own, ...answers.map((a) => csvCell(data[a]))] : [...own, csvCell(data)];
    },
    'form-completions.csv',
  );
}

const idParam = z.object({ id: z.string().min(1).max(128).describe('Completion uid') });

export const completionRoutes = defineRoutes([
  {
    operationId: 'listFormCompletions',
    field: 'Query.formCompletions',
    method: 'GET',
    path: '/form-completions',
    tag: 'Form completions',
    summary: 'List form completions',
    description:
      'Newest first, filtered by formId, code, userId and createdAt (startDate/endDate); cursor pagination. With `Accept: text/csv`, every matching completion as CSV, one column per answer key when formId or code is given.',
    query: CompletionFilterSchema,
    status: 200,
    response: CompletedFormPageDoc,
    errors: [400],
    present: (d) => ({ data: d.data.map(presentCompletion), count: d.count, nextCursor: d.nextCursor }),
    alternates: { 'text/csv': { description: 'CSV of every matching completion', handle: csvExport } },
  },
  {
    operationId: 'getFormCompletion',
    field: 'Query.formCompletion',
    method: 'GET',
    path: '/form-completions/{id}',
    tag: 'Form completions',
    summary: 'Get a form completion',
    params: idParam,
    status: 200,
    response: CompletedFormDoc,
    errors: [404],
    present: presentCompletion,
  },
  {
    operationId: 'createFormCompletion',
    field: 'Mutation.createFormCompletion',
    method: 'POST',
    path: '/form-completions',
    tag: 'Form completions',
    summary: 'Submit a form',
    description:
      'Answers by field name or storage key (see GET /forms/{id}/completion-schema), validated by field type. Defect answers create Defect schedule items and odometer answers raise the vehicle\u2019s primary total, in the same transaction. An inactive form answers 409.',
    body: CreateFormCompletionBody,
    bodyArg: 'input',
    accept: checkedBy((b) => checkCompletionBody(b)),
    status: 201,
    response: FormCompletionWriteResultDoc,
    errors: [400, 409],
  },
]);
