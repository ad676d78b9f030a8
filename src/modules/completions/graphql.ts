import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { WriteStatusEnum, stripNulls } from '../../graphql/common.js';
import { argsFromSchema, inputFromSchema } from '../../graphql/inputs.js';
import { REST_HIDDEN, REST_NULLABLE, REST_PAGE, jsonOf, restNamed } from '../../rest/representation.js';
import '../forms/graphql.js'; // the Form object the relation answers with
import { ScheduleItemType } from '../schedule/graphql.js';
import { UserType } from '../users/graphql.js';
import { CompletionFilterSchema, CreateFormCompletionCheck } from './schema.js';
import { RevisionDoc } from '../forms/schema.js';
import type { CompletionPage, CompletionWriteResult, SideEffects, StoredSideEffects } from './service.js';

/**
 * Form completions on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the object
 * below is the one output definition of a completion (docs/contract/api-v1.md §2.9). The template is a Prisma
 * relation; the submitting user and the schedule items a submission created load through the request's DataLoaders.
 */
const stored = (v: unknown): StoredSideEffects => {
  const s = (v ?? {}) as Partial<StoredSideEffects>;
  return { scheduleItemsCreated: s.scheduleItemsCreated ?? [], vehiclesUpdated: s.vehiclesUpdated ?? [], warnings: s.warnings ?? [] };
};

/** A loaded row: not missing (a deleted item) and not a load's error. */
const isRow = <T>(i: T | Error | null | undefined): i is T => !!i && !(i instanceof Error);

export const SideEffectsType = builder
  .objectRef<SideEffects>('FormCompletionSideEffects')
  .implement({
    description: 'What a submission did to assets: defect schedule items created, vehicles whose primary total rose.',
    fields: (t) => ({
      scheduleItemsCreated: t.exposeInt('scheduleItemsCreated'),
      vehiclesUpdated: t.exposeInt('vehiclesUpdated'),
      warnings: t.exposeStringList('warnings', { description: 'e.g. an odometer reading below the current total, not applied' }),
    }),
  });

/** Every column of a completion but the answers and side effects (JSON): read whole, with every completion read. */
const COMPLETION_SCALARS = {
  uid: true,
  formId: true,
  code: true,
  name: true,
  userId: true,
  companyId: true,
  revision: true,
  revisionDate: true,
  signatories: true,
  submitterName: true,
  appBaseUrl: true,
  createdAt: true,
  updatedAt: true,
} as const;

export const FormCompletionType = builder.prismaObject('FormCompletion', {
  description: 'A submitted form. `data` is keyed by field name; name, code and revision are the template\u2019s at submission.',
  extensions: restNamed('CompletedForm'),
  // select mode, scalars whole (decision 0007): every row reads the scalar columns, which the fields below resolve
  // off without a selection of their own; `data`, `sideEffects` (JSON) and the `form` relation only when selected
  select: COMPLETION_SCALARS,
  fields: (t) => ({
    uid: t.id({ resolve: (c) => c.uid }),
    formId: t.string({ resolve: (c) => c.formId }),
    code: t.string({ resolve: (c) => c.code }),
    name: t.string({ resolve: (c) => c.name }),
    userId: t.string({ description: 'The submitting user, or `public` for a public-form submission', resolve: (c) => c.userId }),
    companyId: t.string({ resolve: (c) => c.companyId }),
    data: t.field({
      type: 'JSON',
      description: 'Answers keyed by field name (companions <name>__<companion>)',
      extensions: jsonOf(z.record(z.string(), z.unknown())),
      select: { data: true },
      resolve: (c) => c.data,
    }),
    revision: t.float({
      nullable: true,
      description: 'The template’s revision at submission: a whole number (Float for compatibility; REST and OpenAPI: integer)',
      extensions: jsonOf(RevisionDoc),
      resolve: (c) => c.revision,
    }),
    revisionDate: t.string({ nullable: true, resolve: (c) => c.revisionDate }),
    signatories: t.stringList({ resolve: (c) => c.signatories }),
    submitterName: t.string({ nullable: true, resolve: (c) => c.submitterName }),
    appBaseUrl: t.string({ nullable: true, resolve: (c) => c.appBaseUrl }),
    sideEffects: t.field({
      type: SideEffectsType,
      select: { sideEffects: true },
      resolve: (c) => {
        const s = stored(c.sideEffects);
        return { scheduleItemsCreated: s.scheduleItemsCreated.length, vehiclesUpdated: s.vehiclesUpdated.length, warnings: s.warnings };
      },
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
    form: t.relation('form', { nullable: true, extensions: REST_HIDDEN }),
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The submitting user (null for public submissions)',
      extensions: REST_HIDDEN,
      // `public` is no user's uid (reserved, src/modules/users/service.ts), even where one was made before it was
      resolve: (c, _a, ctx) => (c.userId === 'public' ? null : ctx.services.users.find(c.userId)),
    }),
    scheduleItems: t.field({
      type: [ScheduleItemType],
      description: 'The Defect schedule items this submission created',
      extensions: REST_HIDDEN,
      select: { sideEffects: true },
      resolve: async (c, _a, ctx) => {
        const items = await ctx.services.loaders.scheduleItem.loadMany(stored(c.sideEffects).scheduleItemsCreated);
        return items.filter(isRow);
      },
    }),
  }),
});

export const FormCompletionPageType = builder.objectRef<CompletionPage>('FormCompletionPage').implement({
  extensions: { ...restNamed('CompletedFormPage'), ...REST_PAGE },
  fields: (t) => ({
    data: t.field({ type: [FormCompletionType], resolve: (p) => p.data }),
    count: t.exposeInt('count', { description: 'Completions in this page' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end', extensions: REST_NULLABLE }),
  }),
});

export const FormCompletionWriteResultType = builder.objectRef<CompletionWriteResult>('FormCompletionWriteResult').implement({
  fields: (t) => ({
    uid: t.exposeID('uid'),
    status: t.field({ type: WriteStatusEnum, description: 'created', resolve: (r) => r.status }),
    sideEffects: t.field({ type: SideEffectsType, resolve: (r) => r.sideEffects }),
  }),
});

builder.queryFields((t) => ({
  formCompletions: t.field({
    type: FormCompletionPageType,
    description: 'Completions, newest first, filtered by form, code, user and time; cursor pagination.',
    args: argsFromSchema(t, 'FormCompletionFilter', CompletionFilterSchema, 'form-completion'),
    resolve: (_r, args, ctx, info) => ctx.services.completions.list(stripNulls(args), queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  formCompletion: t.prismaField({
    type: 'FormCompletion',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => ctx.services.completions.get(String(args.id), query),
  }),
}));

// The input is the service's check (src/graphql/inputs.ts); answers are keyed by the form's own field names, so
// they stay a JSON map
export const CreateFormCompletionInput = inputFromSchema(
  'CreateFormCompletionInput',
  CreateFormCompletionCheck,
  'A submission: formId and answers (by field name or storage key) required.',
);

builder.mutationFields((t) => ({
  createFormCompletion: t.field({
    type: FormCompletionWriteResultType,
    description:
      'Submits a form: each answer is checked against its field. Defect and odometer answers take effect in the same transaction.',
    args: { input: t.arg({ type: CreateFormCompletionInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.completions.create(args.input),
  }),
}));
