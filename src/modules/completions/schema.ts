import { z } from 'zod';
import { timeCursorArg } from '../../db/keyset.js';
import { ValidationError, fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { serviceCheck } from '../../graphql/validation.js';
import { EndDateParam, LimitParam, StartDateParam, dateRangeInOrder } from '../../lib/params.js';

/**
 * The inputs of form completions (docs/contract/api-v1.md §2.10, §4.3), each defined once: the GraphQL input type,
 * the REST body document and MCP schema are read off these schemas, and the check below is what every channel runs.
 */
const text = (what: string, max: number) =>
  z.string({ error: `${what} must be a string` }).max(max, `${what} is too long (${max} characters at most)`);

export const SERVER_CONTROLLED = ['uid', 'companyId', 'createdAt', 'updatedAt', 'data', 'code', 'name', 'revision', 'revisionDate', 'sideEffects'] as const;

/** The longest `submitterName` taken (characters); the public form page says the same. */
export const SUBMITTER_NAME_MAX = 500;

export const CreateCompletionSchema = z
  .object({
    formId: z.string({ error: 'formId must be a string' }).min(1, 'formId must not be empty').max(128, 'formId is too long').describe('Template uid'),
    answers: z
      .record(z.string(), z.unknown(), { error: 'answers must be an object keyed by field name or storage key' })
      .describe('Keyed by field name (preferred) or storage key (__s{si}_f{fi}, companions __s{si}_f{fi}__{companion})'),
    userId: z.string({ error: 'userId must be a string' }).min(1, 'userId must not be empty').max(128).optional().describe('Defaults to the API key\u2019s user'),
    signatories: z.array(text('each signatories entry', 500), { error: 'signatories must be an array of strings' }).max(200).optional(),
    submitterName: text('submitterName', SUBMITTER_NAME_MAX).optional().describe('Display name for history and notifications'),
    appBaseUrl: z
      .url({ protocol: /^https?$/, error: 'appBaseUrl must be an absolute http or https URL' })
      .max(2048, 'appBaseUrl is too long')
      .optional()
      .describe('Base URL of the submitting app, for links to the submission'),
  })
  .strict();
export type CreateCompletionInput = z.output<typeof CreateCompletionSchema>;

export const CompletionFilterSchema = z
  .object({
    formId: z.string().min(1).max(128).optional().describe('Only completions of this template uid'),
    code: z.string().min(1).max(100).optional().describe('Only completions of the template with this code'),
    userId: z.string().min(1).max(128).optional().describe('Only completions by this user'),
    startDate: StartDateParam('completions'),
    endDate: EndDateParam('completions'),
    limit: LimitParam.optional().describe('Page size, 1 to 500 (default 100)'),
    cursor: timeCursorArg('form-completion').optional(),
  })
  .strict()
  .superRefine(dateRangeInOrder);
export type CompletionFilter = z.input<typeof CompletionFilterSchema>;

/** `public` for public-form submissions (no API key): userId is `public`, body userId not accepted. */
export interface SubmitOptions {
  submittedBy?: 'public';
  /** a public submission's: the public id it came by, under which its form must still be public when it is written */
  publicId?: string;
}

/**
 * The body check of a submission (no database): every channel runs it (CreateFormCompletionCheck), so each answers
 * the same 400; server-controlled fields are refused by name. The answers are checked against the form in the service.
 */
export function checkCompletionBody(raw: unknown, opts: SubmitOptions = {}): CreateCompletionInput {
  if (!isPlainObject(raw)) throw new ValidationError('a form completion must be a JSON object');
  const errors: FieldError[] = [];
  for (const k of SERVER_CONTROLLED) if (k in raw) errors.push({ path: `/${k}`, message: `${k} is set by the server` });
  if (opts.submittedBy === 'public' && 'userId' in raw) errors.push({ path: '/userId', message: 'a public submission has no userId' });
  const body = { ...raw };
  for (const k of SERVER_CONTROLLED) delete body[k];
  const parsed = CreateCompletionSchema.safeParse(body);
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  if (errors.length || !parsed.success) invalid('form completion', errors);
  return parsed.data;
}

export const CreateFormCompletionCheck = serviceCheck('form completion', CreateCompletionSchema, (raw) => checkCompletionBody(raw));
