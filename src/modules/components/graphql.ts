import { z } from 'zod';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { WriteResultType, pageFields, stripNulls } from '../../graphql/common.js';
import { argsFromSchema, enumOf, inputFromSchema } from '../../graphql/inputs.js';
import { REST_HIDDEN, REST_NULLABLE, jsonOf } from '../../rest/representation.js';
import type { CounterBinding } from './counters.js';
import type { AssetRef, CounterView, InheritableSource, InheritableSources } from './read-model.js';
import {
  ComponentChildrenArgsSchema,
  ComponentFilterSchema,
  ComponentStateSchema,
  CounterBasisSchema,
  CounterUnitSchema,
  CreateComponentCheck,
  InstallComponentCheck,
  ParentTypeSchema,
  RemoveComponentCheck,
  ResetCounterCheck,
  UpdateComponentCheck,
  componentState,
} from './schema.js';
import type { ComponentList } from './service.js';

/**
 * Components on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the objects below
 * are the one output definition of a component (docs/contract/api-v1.md §2.15). A component is a plugin-prisma
 * object in select mode whose type-level `select` reads its scalar columns whole, with every row (decision 0007,
 * "scalars whole"); the counters (JSON) are read only when `counters` or `totals` is selected, and `children` and
 * `parentComponent` read their rows with the request's selection. Its counter values, parent and root are
 * computed from its parents' live values, through the request's loaders (./read-model.ts), for the rows that ask.
 */
// the enums, one each, shared by the inputs (the schemas name them, src/graphql/inputs.ts) and the outputs
export const ComponentStateEnum = enumOf(ComponentStateSchema, 'Where a component is; `installed` is reached only through installComponent.');
export const CounterUnitEnum = enumOf(CounterUnitSchema, 'Display unit of a counter; it does not restrict which parent fields it can be mapped to.');
export const CounterBasisEnum = enumOf(
  CounterBasisSchema,
  'sinceNew counters never reset (children may bind to them); sinceEvent counters are reset by users.',
);
export const ComponentParentTypeEnum = enumOf(ParentTypeSchema);

export const ComponentAssetRefType = builder.objectRef<AssetRef>('ComponentAssetRef').implement({
  description: 'A parent or root asset of a component: aircraft and vehicles by registration, components by name.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'aircraft, vehicle or component (rootAsset: aircraft or vehicle)', extensions: jsonOf(ParentTypeSchema) }),
    uid: t.exposeString('uid'),
    name: t.exposeString('name'),
  }),
});

export const CounterBindingType = builder.objectRef<CounterBinding>('CounterBinding').implement({
  description: 'Captured at installation: value = selfValue + (parent\u2019s current value of sourceKey - parentValue).',
  fields: (t) => ({
    parentUid: t.exposeString('parentUid'),
    parentType: t.exposeString('parentType', { description: 'aircraft, vehicle or component', extensions: jsonOf(ParentTypeSchema) }),
    sourceKey: t.exposeString('sourceKey'),
    parentValue: t.exposeFloat('parentValue', { description: 'The parent\u2019s value of sourceKey when bound' }),
    selfValue: t.exposeFloat('selfValue', { description: 'The counter\u2019s own value when bound' }),
    boundAt: t.exposeString('boundAt', { description: 'ISO 8601' }),
    sourceDisplayText: t.string({ nullable: true, resolve: (b) => b.sourceDisplayText ?? null }),
    sourcePrecision: t.int({ nullable: true, resolve: (b) => b.sourcePrecision ?? null }),
  }),
});

export const ComponentCounterType = builder.objectRef<CounterView>('ComponentCounter').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'camelCase, unique within the component' }),
    displayText: t.exposeString('displayText'),
    unit: t.field({ type: CounterUnitEnum, resolve: (c) => c.unit }),
    precision: t.exposeInt('precision', { description: 'Used when unbound; while fitted binding.sourcePrecision wins' }),
    basis: t.field({ type: CounterBasisEnum, resolve: (c) => c.basis }),
    binding: t.field({ type: CounterBindingType, nullable: true, extensions: REST_NULLABLE, resolve: (c) => c.binding }),
    sourceDecreased: t.boolean({
      nullable: true,
      description: 'true when the inherited source went backwards: the value is clamped to selfValue, not corrected',
      resolve: (c) => (c.sourceDecreased ? true : null),
    }),
    value: t.exposeFloat('value', { description: 'Current value (also in the component\u2019s totals)', extensions: REST_HIDDEN }),
  }),
});

/**
 * Every column of a component its output reads but the counters (JSON): read whole, with every component a request
 * reads; the parent's kind and uid and the root's are among them (`parent`, `parentComponent` and `rootAsset` follow
 * them).
 */
const COMPONENT_SCALARS = {
  uid: true,
  companyId: true,
  name: true,
  type: true,
  partNumber: true,
  serialNumber: true,
  status: true,
  state: true,
  manufacturer: true,
  description: true,
  condition: true,
  grn: true,
  notes: true,
  alternatePartNumbers: true,
  location: true,
  parentKind: true,
  parentUid: true,
  installedAt: true,
  rootAssetType: true,
  rootAssetUid: true,
  ancestorUids: true,
  childCount: true,
  canHaveChildren: true,
  parentType: true,
  createdAt: true,
  updatedAt: true,
} as const;

// declared first: a component's children are a page of components
export const ComponentListType = builder.objectRef<ComponentList>('ComponentList');

export const ComponentType = builder.prismaObject('Component', {
  description: 'A serialised part with usage counters, fitted to an aircraft, a vehicle or another component.',
  select: COMPONENT_SCALARS,
  fields: (t) => ({
    uid: t.string({ resolve: (c) => c.uid }),
    companyId: t.string({ resolve: (c) => c.companyId }),
    name: t.string({ resolve: (c) => c.name }),
    type: t.string({ description: 'Free text', resolve: (c) => c.type }),
    partNumber: t.string({ resolve: (c) => c.partNumber }),
    serialNumber: t.string({ resolve: (c) => c.serialNumber }),
    status: t.string({ description: 'active, or deleted when soft-deleted', resolve: (c) => c.status }),
    state: t.field({ type: ComponentStateEnum, resolve: (c) => componentState(c.state) }),
    manufacturer: t.string({ nullable: true, resolve: (c) => c.manufacturer }),
    description: t.string({ nullable: true, resolve: (c) => c.description }),
    condition: t.string({ nullable: true, resolve: (c) => c.condition }),
    grn: t.string({ nullable: true, resolve: (c) => c.grn }),
    notes: t.string({ nullable: true, resolve: (c) => c.notes }),
    alternatePartNumbers: t.stringList({ resolve: (c) => c.alternatePartNumbers }),
    location: t.string({
      nullable: true,
      description: 'Meaning follows the state (shelf when inStores, vendor when inRepair, ...); absent while installed',
      resolve: (c) => c.location,
    }),
    parent: t.field({
      type: ComponentAssetRefType,
      nullable: true,
      resolve: (c, _a, ctx) => ctx.services.components.ref(c.parentKind, c.parentUid),
    }),
    installedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.installedAt }),
    rootAsset: t.field({
      type: ComponentAssetRefType,
      nullable: true,
      description: 'Top of the tree',
      resolve: (c, _a, ctx) => ctx.services.components.ref(c.rootAssetType, c.rootAssetUid),
    }),
    ancestorUids: t.stringList({ description: 'Every ancestor uid, from the root down to the parent', resolve: (c) => c.ancestorUids }),
    childCount: t.int({ resolve: (c) => c.childCount }),
    canHaveChildren: t.boolean({ resolve: (c) => c.canHaveChildren }),
    parentType: t.string({
      nullable: true,
      description: 'Intended parent: aircraft, vehicle, or a component type used in the company',
      resolve: (c) => c.parentType,
    }),
    // the counters (JSON) only when asked; their values also need the ancestors, which every row has
    counters: t.field({ type: [ComponentCounterType], select: { counters: true }, resolve: (c, _a, ctx) => ctx.services.components.counters(c) }),
    totals: t.field({
      type: 'JSON',
      description: 'map<string, number>: current value per counter key',
      select: { counters: true },
      extensions: jsonOf(z.record(z.string(), z.number())),
      resolve: (c, _a, ctx) => ctx.services.components.totals(c),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
    childrenPage: t.field({
      type: ComponentListType,
      description: 'Components fitted directly to this one, a page at a time, in the order of `components`; a nextCursor continues this component\u2019s children only',
      args: argsFromSchema(t, 'ComponentChildrenArgs', ComponentChildrenArgsSchema, 'component'),
      extensions: REST_HIDDEN,
      resolve: (c, args, ctx, info) => ctx.services.components.children(c.uid, stripNulls(args), queryFromInfo({ context: ctx, info, path: ['data'] })),
    }),
    children: t.prismaField({
      type: ['Component'],
      description: 'Components fitted directly to this one: the first 1,000 (childCount says how many there are)',
      deprecationReason: 'Bounded to the first 1,000 (gaps §17); childrenPage pages through all of them',
      extensions: REST_HIDDEN,
      resolve: async (query, c, _a, ctx) => (await ctx.services.components.children(c.uid, {}, query)).data,
    }),
    parentComponent: t.prismaField({
      type: 'Component',
      nullable: true,
      description: 'The parent, when it is a component',
      extensions: REST_HIDDEN,
      resolve: (query, c, _a, ctx) => (c.parentKind === 'component' && c.parentUid ? ctx.services.components.find(c.parentUid, query) : null),
    }),
  }),
});

ComponentListType.implement({
  fields: (t) => ({
    data: t.field({ type: [ComponentType], resolve: (l) => l.data }),
    ...pageFields(t),
  }),
});

export const InheritableSourceType = builder.objectRef<InheritableSource>('InheritableSource').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    displayText: t.exposeString('displayText'),
    unit: t.field({ type: CounterUnitEnum, resolve: (s) => s.unit }),
    precision: t.exposeInt('precision'),
    basis: t.field({ type: CounterBasisEnum, resolve: (s) => s.basis }),
    currentValue: t.exposeFloat('currentValue'),
  }),
});

export const InheritableSourcesType = builder.objectRef<InheritableSources>('InheritableSources').implement({
  fields: (t) => ({
    parentName: t.exposeString('parentName'),
    sources: t.field({ type: [InheritableSourceType], resolve: (s) => s.sources }),
  }),
});

// Inputs are the service's checks (src/graphql/inputs.ts): defined once, checked once, by Pothos' validation plugin.
export const CreateComponentInput = inputFromSchema('CreateComponentInput', CreateComponentCheck);
export const UpdateComponentInput = inputFromSchema('UpdateComponentInput', UpdateComponentCheck);
export const InstallComponentInput = inputFromSchema('InstallComponentInput', InstallComponentCheck);
export const RemoveComponentInput = inputFromSchema('RemoveComponentInput', RemoveComponentCheck);
export const ResetCounterInput = inputFromSchema('ResetCounterInput', ResetCounterCheck);

builder.queryFields((t) => ({
  components: t.field({
    type: ComponentListType,
    description: 'Components of the company (soft-deleted ones only with includeDeleted), by name, serial number and uid.',
    args: argsFromSchema(t, 'ComponentFilter', ComponentFilterSchema, 'component'),
    resolve: (_r, filter, ctx, info) => ctx.services.components.list(stripNulls(filter), queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  component: t.prismaField({
    type: 'Component',
    description: 'One component by uid (counter values current); NOT_FOUND when the company has no such component.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => ctx.services.components.get(String(args.id), query),
  }),
  inheritableSources: t.field({
    type: InheritableSourcesType,
    description:
      'What the component\u2019s counters could be mapped to under a parent: an aircraft\u2019s or vehicle\u2019s number ' +
      'maintenance items, or a component\u2019s sinceNew counters.',
    args: {
      id: t.arg.id({ required: true }),
      parentType: t.arg({ type: ComponentParentTypeEnum, required: true }),
      parentUid: t.arg.string({ required: true }),
    },
    resolve: (_r, args, ctx) => ctx.services.components.inheritableSources(String(args.id), args.parentType, args.parentUid),
  }),
}));

builder.mutationFields((t) => ({
  createComponent: t.field({
    type: WriteResultType,
    args: { input: t.arg({ type: CreateComponentInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.create(args.input),
  }),
  updateComponent: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateComponentInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.update(String(args.id), args.input),
  }),
  deleteComponent: t.field({
    type: WriteResultType,
    description: 'Soft delete; CONFLICT while installed or while components are fitted to it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.delete(String(args.id)),
  }),
  restoreComponent: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.restore(String(args.id)),
  }),
  installComponent: t.field({
    type: WriteResultType,
    description: 'Fits the component (and everything fitted to it) to a parent; counter bindings are rebuilt from mappings.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: InstallComponentInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.install(String(args.id), args.input),
  }),
  removeComponent: t.field({
    type: WriteResultType,
    description: 'Takes the component off its parent; bound counters freeze at their current values.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: RemoveComponentInput }) },
    resolve: (_r, args, ctx) => ctx.services.components.remove(String(args.id), args.input ?? RemoveComponentCheck.parse({})), // no body: the defaults,
  }),
  resetComponentCounter: t.field({
    type: WriteResultType,
    description: 'Resets a sinceEvent counter (CONFLICT for sinceNew counters).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ResetCounterInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.resetCounter(String(args.id), args.input),
  }),
}));
