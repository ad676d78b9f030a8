import { builder } from '../../graphql/builder.js';
import { WriteResultType, stripNulls } from '../../graphql/common.js';
import { COUNTER_BASES, COUNTER_UNITS, PARENT_TYPES, type CounterBinding } from './counters.js';
import type { AssetRef, ComponentList, ComponentView, CounterView, InheritableSource, InheritableSources } from './read-model.js';
import type { z } from 'zod';
import { argsFromZod, inputFromZod } from '../../graphql/zod-input.js';
import {
  COMPONENT_STATES,
  ComponentFilterSchema,
  CounterInputSchema,
  CounterMappingSchema,
  CreateSchema,
  InstallSchema,
  RemoveSchema,
  ResetSchema,
  UpdateSchema,
} from './schema.js';

/** GraphQL adapter for components: types, queries and mutations over ComponentService. */
export const ComponentStateEnum = builder.enumType('ComponentState', {
  description: 'Where a component is; `installed` is reached only through installComponent.',
  values: COMPONENT_STATES,
});
export const CounterUnitEnum = builder.enumType('CounterUnit', {
  description: 'Display unit of a counter; it does not restrict which parent fields it can be mapped to.',
  values: COUNTER_UNITS,
});
export const CounterBasisEnum = builder.enumType('CounterBasis', {
  description: 'sinceNew counters never reset (children may bind to them); sinceEvent counters are reset by users.',
  values: COUNTER_BASES,
});
export const ComponentParentTypeEnum = builder.enumType('ComponentParentType', { values: PARENT_TYPES });

export const ComponentAssetRefType = builder.objectRef<AssetRef>('ComponentAssetRef').implement({
  description: 'A parent or root asset of a component: aircraft and vehicles by registration, components by name.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'aircraft, vehicle or component (rootAsset: aircraft or vehicle)' }),
    uid: t.exposeString('uid'),
    name: t.exposeString('name'),
  }),
});

export const CounterBindingType = builder.objectRef<CounterBinding>('CounterBinding').implement({
  description: 'Captured at installation: value = selfValue + (parent\u2019s current value of sourceKey - parentValue).',
  fields: (t) => ({
    parentUid: t.exposeString('parentUid'),
    parentType: t.exposeString('parentType', { description: 'aircraft, vehicle or component' }),
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
    binding: t.field({ type: CounterBindingType, nullable: true, resolve: (c) => c.binding }),
    sourceDecreased: t.boolean({
      nullable: true,
      description: 'true when the inherited source went backwards: the value is clamped to selfValue, not corrected',
      resolve: (c) => (c.sourceDecreased ? true : null),
    }),
    value: t.exposeFloat('value', { description: 'Current value (also in the component\u2019s totals)', extensions: { rest: false } }),
  }),
});

export const ComponentType = builder.objectRef<ComponentView>('Component');
ComponentType.implement({
  description: 'A serialised part with usage counters, fitted to an aircraft, a vehicle or another component.',
  fields: (t) => ({
    uid: t.exposeString('uid'),
    companyId: t.exposeString('companyId'),
    name: t.exposeString('name'),
    type: t.exposeString('type', { description: 'Free text' }),
    partNumber: t.exposeString('partNumber'),
    serialNumber: t.exposeString('serialNumber'),
    status: t.exposeString('status', { description: 'active, or deleted when soft-deleted' }),
    state: t.field({ type: ComponentStateEnum, resolve: (c) => c.state as never }),
    manufacturer: t.exposeString('manufacturer', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    condition: t.exposeString('condition', { nullable: true }),
    grn: t.exposeString('grn', { nullable: true }),
    notes: t.exposeString('notes', { nullable: true }),
    alternatePartNumbers: t.exposeStringList('alternatePartNumbers'),
    location: t.exposeString('location', {
      nullable: true,
      description: 'Meaning follows the state (shelf when inStores, vendor when inRepair, ...); absent while installed',
    }),
    parent: t.field({ type: ComponentAssetRefType, nullable: true, resolve: (c) => c.parent }),
    installedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.installedAt }),
    rootAsset: t.field({ type: ComponentAssetRefType, nullable: true, description: 'Top of the tree', resolve: (c) => c.rootAsset }),
    ancestorUids: t.exposeStringList('ancestorUids', { description: 'Every ancestor uid, from the root down to the parent' }),
    childCount: t.exposeInt('childCount'),
    canHaveChildren: t.exposeBoolean('canHaveChildren'),
    parentType: t.exposeString('parentType', {
      nullable: true,
      description: 'Intended parent: aircraft, vehicle, or a component type used in the company',
    }),
    counters: t.field({ type: [ComponentCounterType], resolve: (c) => c.counters }),
    totals: t.field({ type: 'JSON', description: 'map<string, number>: current value per counter key', resolve: (c) => c.totals }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
    children: t.field({
      type: [ComponentType],
      description: 'Components fitted directly to this one',
      extensions: { rest: false },
      resolve: (c, _a, ctx) => ctx.services.components.children(c.uid),
    }),
    parentComponent: t.field({
      type: ComponentType,
      nullable: true,
      description: 'The parent, when it is a component',
      extensions: { rest: false },
      resolve: (c, _a, ctx) => (c.parent?.type === 'component' ? ctx.services.components.find(c.parent.uid) : null),
    }),
  }),
});

export const ComponentListType = builder.objectRef<ComponentList>('ComponentList').implement({
  fields: (t) => ({
    data: t.field({ type: [ComponentType], resolve: (l) => l.data }),
    count: t.exposeInt('count'),
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

// Inputs are derived from the service's zod schemas (src/graphql/zod-input.ts): defined once, checked there.
const inputOpts = {
  names: new Map<z.ZodType, string>([
    [CounterInputSchema, 'ComponentCounterInput'],
    [CounterMappingSchema, 'CounterMappingInput'],
  ]),
  enums: [ComponentStateEnum, CounterUnitEnum, CounterBasisEnum, ComponentParentTypeEnum],
};
export const CreateComponentInput = inputFromZod('CreateComponentInput', CreateSchema, inputOpts);
export const UpdateComponentInput = inputFromZod('UpdateComponentInput', UpdateSchema, inputOpts);
export const InstallComponentInput = inputFromZod('InstallComponentInput', InstallSchema, inputOpts);
export const RemoveComponentInput = inputFromZod('RemoveComponentInput', RemoveSchema, inputOpts);
export const ResetCounterInput = inputFromZod('ResetCounterInput', ResetSchema, inputOpts);

builder.queryFields((t) => ({
  components: t.field({
    type: ComponentListType,
    description: 'Components of the company (soft-deleted ones only with includeDeleted), by name, serial number and uid.',
    args: argsFromZod(t, 'ComponentFilter', ComponentFilterSchema, inputOpts),
    resolve: (_r, args, ctx) => ctx.services.components.list(stripNulls(args) as never),
  }),
  component: t.field({
    type: ComponentType,
    description: 'One component by uid (counter values current); NOT_FOUND when the company has no such component.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.get(String(args.id)),
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
    resolve: (_r, args, ctx) => ctx.services.components.remove(String(args.id), args.input ?? {}),
  }),
  resetComponentCounter: t.field({
    type: WriteResultType,
    description: 'Resets a sinceEvent counter (CONFLICT for sinceNew counters).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ResetCounterInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.components.resetCounter(String(args.id), args.input),
  }),
}));
