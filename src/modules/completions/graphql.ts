import { argsFromZod, inputFromZod } from '../../graphql/zod-input.js';
import { builder } from '../../graphql/builder.js';
import { stripNulls } from '../../graphql/common.js';
import { FormType } from '../forms/graphql.js';
import { ScheduleItemType } from '../schedule/graphql.js';
import { UserType } from '../users/graphql.js';
import { CompletionFilterSchema, CreateCompletionSchema, type CompletionPage, type StoredSideEffects } from './service.js';

/** GraphQL adapter for form completions over CompletionService; relations batch through the request's loaders. */
const stored = (v: unknown): StoredSideEffects => {
  const s = (v ?? {}) as Partial<StoredSideEffects>;
  return { scheduleItemsCreated: s.scheduleItemsCreated ?? [], vehiclesUpdated: s.vehiclesUpdated ?? [], warnings: s.warnings ?? [] };
};

export const SideEffectsType = builder
  .objectRef<{ scheduleItemsCreated: number; vehiclesUpdated: number; warnings: string[] }>('FormCompletionSideEffects')
  .implement({
    description: 'What a submission did to assets: defect schedule items created, vehicles whose primary total rose.',
    fields: (t) => ({
      scheduleItemsCreated: t.exposeInt('scheduleItemsCreated'),
      vehiclesUpdated: t.exposeInt('vehiclesUpdated'),
      warnings: t.exposeStringList('warnings', { description: 'e.g. an odometer reading below the current total, not applied' }),
    }),
  });

export const FormCompletionType = builder.prismaObject('FormCompletion', {
  description: 'A submitted form. `data` is keyed by field name; name, code and revision are the template\u2019s at submission.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    formId: t.exposeString('formId'),
    code: t.exposeString('code'),
    name: t.exposeString('name'),
    userId: t.exposeString('userId', { description: 'The submitting user, or `public` for a public-form submission' }),
    companyId: t.exposeString('companyId'),
    data: t.field({ type: 'JSON', resolve: (c) => c.data }),
    revision: t.exposeFloat('revision', { nullable: true }),
    revisionDate: t.exposeString('revisionDate', { nullable: true }),
    signatories: t.exposeStringList('signatories'),
    submitterName: t.exposeString('submitterName', { nullable: true }),
    appBaseUrl: t.exposeString('appBaseUrl', { nullable: true }),
    sideEffects: t.field({
      type: SideEffectsType,
      resolve: (c) => {
        const s = stored(c.sideEffects);
        return { scheduleItemsCreated: s.scheduleItemsCreated.length, vehiclesUpdated: s.vehiclesUpdated.length, warnings: s.warnings };
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    form: t.field({
      type: FormType,
      nullable: true,
      extensions: { rest: false },
      resolve: (c, _a, ctx) => ctx.services.loaders.form.load(c.formId),
    }),
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The submitting user (null for public submissions)',
      extensions: { rest: false },
      resolve: (c, _a, ctx) => ctx.services.users.find(c.userId),
    }),
    scheduleItems: t.field({
      type: [ScheduleItemType],
      description: 'The Defect schedule items this submission created',
      extensions: { rest: false },
      resolve: async (c, _a, ctx) => {
        const items = await ctx.services.loaders.scheduleItem.loadMany(stored(c.sideEffects).scheduleItemsCreated);
        return items.filter((i): i is NonNullable<typeof i> & { uid: string } => !!i && !(i instanceof Error)) as never;
      },
    }),
  }),
});

export const FormCompletionPageType = builder.objectRef<CompletionPage>('FormCompletionPage').implement({
  fields: (t) => ({
    data: t.field({ type: [FormCompletionType], resolve: (p) => p.data }),
    count: t.exposeInt('count', { description: 'Completions in this page' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end' }),
  }),
});

export const FormCompletionWriteResultType = builder
  .objectRef<{ uid: string; status: 'created'; sideEffects: { scheduleItemsCreated: number; vehiclesUpdated: number; warnings: string[] } }>(
    'FormCompletionWriteResult',
  )
  .implement({
    fields: (t) => ({
      uid: t.exposeID('uid'),
      status: t.exposeString('status', { description: 'created' }),
      sideEffects: t.field({ type: SideEffectsType, resolve: (r) => r.sideEffects }),
    }),
  });

builder.queryFields((t) => ({
  formCompletions: t.field({
    type: FormCompletionPageType,
    description: 'Completions, newest first, filtered by form, code, user and time; cursor pagination.',
    args: argsFromZod(t, 'FormCompletionFilter', CompletionFilterSchema),
    resolve: (_r, args, ctx) => ctx.services.completions.list(stripNulls(args)),
  }),
  formCompletion: t.prismaField({
    type: 'FormCompletion',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_q, _r, args, ctx) => ctx.services.completions.get(String(args.id)),
  }),
}));

// The input is derived from the service's zod schema (src/graphql/zod-input.ts); answers are keyed by the form's
// own field names, so they stay a JSON map
export const CreateFormCompletionInput = inputFromZod('CreateFormCompletionInput', CreateCompletionSchema, {
  description: 'A submission: formId and answers (by field name or storage key) required.',
});

builder.mutationFields((t) => ({
  createFormCompletion: t.field({
    type: FormCompletionWriteResultType,
    description:
      'Submits a form: each answer is checked against its field. Defect and odometer answers take effect in the same transaction.',
    args: { input: t.arg({ type: CreateFormCompletionInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.completions.create(args.input),
  }),
}));
