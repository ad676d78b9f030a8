import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { defineRoutes, named } from '../../rest/contract.js';
import { csvCell, csvPagedResponse, csvPages } from '../../lib/csv.js';
import { CompletionFilterSchema, CreateCompletionSchema } from './schema.js';
import { EXPORT_BASE } from './service.js';

/**
 * REST routes of form completions (docs/contract/api-v1.md §2.9, §2.10, §4.3; docs/contract/gaps.md §3): declarations
 * and the CSV export; each route runs its GraphQL field, and the body is the REST representation of its GraphQL type.
 */
export const CreateFormCompletionBody = named('CreateFormCompletionBody', CreateCompletionSchema);

async function csvExport(ctx: RequestContext, query: URLSearchParams): Promise<Response> {
  const filter: Record<string, string> = {};
  for (const k of ['formId', 'code', 'userId', 'startDate', 'endDate']) {
    const v = query.get(k);
    if (v !== null) filter[k] = v;
  }
  const { columns, answers } = await ctx.services.completions.exportColumns(filter); // a bad filter is a 400 here
  const paged = await csvPages(query, '/api/v1/form-completions', (p) => ctx.services.completions.list({ ...filter, ...p } as never));
  return csvPagedResponse(
    columns,
    paged,
    (c) => {
      const data = (c.data ?? {}) as Record<string, unknown>;
      const own = EXPORT_BASE.map((k) => csvCell(c[k]));
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
      'Newest first, filtered by formId, code, userId and createdAt (startDate/endDate); cursor pagination. With `Accept: text/csv`, the page the JSON answer would hold (`limit`, `cursor`) as CSV, the next one in a `Link: <...>; rel="next"` header, one column per answer key when formId or code is given.',
    query: CompletionFilterSchema,
    status: 200,
    errors: [400],
    alternates: { 'text/csv': { description: 'CSV of the page of matching completions (the next page in the Link header)', handle: csvExport } },
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
    errors: [404],
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
    status: 201,
    errors: [400, 409],
  },
]);
