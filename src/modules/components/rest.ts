import { z } from 'zod';
import { checkedBy, defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { COUNTER_BASES, COUNTER_UNITS, PARENT_TYPES } from './counters.js';
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
  checkBody,
} from './schema.js';

/** REST adapter for components (docs/contract/api-v1.md §2.15, docs/contract/gaps.md §3 "Components"): declarations and the representation. */
const AssetRefDoc = (types: readonly string[]) =>
  z.object({
    type: z.enum(types as [string, ...string[]]),
    uid: z.string(),
    name: z.string().describe('Registration of an aircraft or vehicle, name of a component'),
  });

export const CounterBindingDoc = named(
  'CounterBinding',
  z
    .object({
      parentUid: z.string(),
      parentType: z.enum(PARENT_TYPES),
      sourceKey: z.string(),
      parentValue: z.number().describe('Parent total for sourceKey at binding time'),
      selfValue: z.number().describe('The counter\u2019s own value at binding time'),
      boundAt: z.string().describe('ISO 8601'),
      sourceDisplayText: z.string().optional(),
      sourcePrecision: z.number().int().optional(),
    })
    .describe('Captured at installation, rebuilt on every install. Value = selfValue + (parent\u2019s current total - parentValue).'),
);

export const ComponentCounterDoc = named(
  'ComponentCounter',
  z.object({
    key: z.string().describe('camelCase, unique within the component'),
    displayText: z.string(),
    unit: z.enum(COUNTER_UNITS).describe('Display only; does not restrict mappable parent fields'),
    precision: z.number().int().describe('Used when unbound; while fitted binding.sourcePrecision wins'),
    basis: z.enum(COUNTER_BASES).describe('sinceNew counters never reset; sinceEvent counters are reset by the user'),
    binding: CounterBindingDoc.nullable(),
    sourceDecreased: z
      .boolean()
      .optional()
      .describe('Present (true) when the inherited source went backwards; the value is clamped to selfValue, not corrected'),
  }),
);

export const ComponentDoc = named(
  'Component',
  z.object({
    uid: z.string(),
    companyId: z.string(),
    name: z.string(),
    type: z.string().describe('Free text'),
    partNumber: z.string(),
    serialNumber: z.string(),
    status: z.string().describe('active, or deleted when soft-deleted'),
    state: z.enum(COMPONENT_STATES).describe('The state decides the meaning of location'),
    manufacturer: z.string().optional(),
    description: z.string().optional(),
    condition: z.string().optional(),
    grn: z.string().optional(),
    notes: z.string().optional(),
    alternatePartNumbers: z.array(z.string()).optional(),
    location: z.string().optional().describe('Absent while installed (comes from the parent)'),
    parent: AssetRefDoc(PARENT_TYPES).optional(),
    installedAt: z.string().optional(),
    rootAsset: AssetRefDoc(['aircraft', 'vehicle']).optional().describe('Top of the tree'),
    ancestorUids: z.array(z.string()).describe('Every ancestor uid, from the root down to the parent'),
    childCount: z.number().int(),
    canHaveChildren: z.boolean().optional().describe('Default true; when false no components can be fitted under it'),
    parentType: z.string().optional().describe('Intended parent: aircraft, vehicle, or a component type used in the company'),
    counters: z.array(ComponentCounterDoc),
    totals: z.record(z.string(), z.number()).describe('Current value per counter key'),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
);

// Request bodies: the service's own schemas (src/modules/components/schema.ts), by name in the document
named('ComponentCounterInput', CounterInputSchema);
named('CounterMapping', CounterMappingSchema);
export const CreateComponentBody = named('CreateComponentBody', CreateSchema);
export const UpdateComponentBody = named('UpdateComponentBody', UpdateSchema);
export const InstallComponentBody = named('InstallComponentBody', InstallSchema);
export const RemoveComponentBody = named('RemoveComponentBody', RemoveSchema);
export const ResetCounterBody = named('ResetCounterBody', ResetSchema);
export const InheritableSourcesResponse = named(
  'InheritableSourcesResponse',
  z.object({
    parentName: z.string(),
    sources: z.array(
      z.object({
        key: z.string(),
        displayText: z.string(),
        unit: z.enum(COUNTER_UNITS).describe('Aircraft/vehicle items: guessed from key and display text, hours by default'),
        precision: z.number().int(),
        basis: z.enum(COUNTER_BASES).describe('Aircraft/vehicle items count since new; a component offers its sinceNew counters only'),
        currentValue: z.number(),
      }),
    ),
  }),
);
export const ComponentWriteResult = named(
  'ComponentWriteResult',
  z.object({ uid: z.string(), status: z.enum(['created', 'updated', 'deleted', 'restored', 'no_changes', 'installed', 'removed']) }),
);
export const ComponentListResponse = named(
  'ComponentListResponse',
  z.object({ data: z.array(ComponentDoc), count: z.number().int() }),
);

/** The REST shape: optional fields without a value are left out; sourceDecreased appears only when true. */
export function presentComponent(c: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = omitNulls(c);
  if (c.parent) out.parent = omitNulls(c.parent);
  if (c.rootAsset) out.rootAsset = omitNulls(c.rootAsset);
  if (Array.isArray(c.counters)) {
    out.counters = c.counters.map((k: Record<string, any>) => {
      const { sourceDecreased, binding, ...rest } = k;
      return { ...omitNulls(rest), binding: binding ? omitNulls(binding) : null, ...(sourceDecreased ? { sourceDecreased: true } : {}) };
    });
  }
  return out;
}

const idParam = z.object({ id: z.string().min(1).describe('Component uid') });
const TAG = 'Components';

export const componentRoutes = defineRoutes([
  {
    operationId: 'listComponents',
    field: 'Query.components',
    method: 'GET',
    path: '/components',
    tag: TAG,
    summary: 'List components',
    description: 'Soft-deleted components are left out unless includeDeleted=true. Ordered by name, serial number, uid.',
    query: ComponentFilterSchema,
    status: 200,
    response: ComponentListResponse,
    errors: [400],
    present: (d) => ({ data: d.data.map(presentComponent), count: d.count }),
  },
  {
    operationId: 'getComponent',
    field: 'Query.component',
    method: 'GET',
    path: '/components/{id}',
    tag: TAG,
    summary: 'Get a component',
    description: 'Counter values (totals) are current: recomputed from the parents\u2019 live totals.',
    params: idParam,
    status: 200,
    response: ComponentDoc,
    errors: [404],
    present: (d) => presentComponent(d),
  },
  {
    operationId: 'createComponent',
    field: 'Mutation.createComponent',
    method: 'POST',
    path: '/components',
    tag: TAG,
    summary: 'Create a component',
    description: 'State defaults to inStores; installed is refused (use the install operation). Counter keys derive from displayText.',
    body: CreateComponentBody,
    bodyArg: 'input',
    accept: checkedBy(checkBody.create),
    status: 201,
    response: ComponentWriteResult,
    errors: [400],
  },
  {
    operationId: 'updateComponent',
    field: 'Mutation.updateComponent',
    method: 'PATCH',
    path: '/components/{id}',
    tag: TAG,
    summary: 'Update a component',
    description: 'updated or no_changes. 409 when the change conflicts with the current state (e.g. a new state while installed).',
    params: idParam,
    body: UpdateComponentBody,
    bodyArg: 'input',
    accept: checkedBy(checkBody.update),
    status: 200,
    response: ComponentWriteResult,
    errors: [400, 404, 409],
  },
  {
    operationId: 'deleteComponent',
    field: 'Mutation.deleteComponent',
    method: 'DELETE',
    path: '/components/{id}',
    tag: TAG,
    summary: 'Delete a component',
    description: 'Soft delete: status becomes deleted and it is hidden from lists. 409 while installed or while components are fitted to it.',
    params: idParam,
    status: 200,
    response: ComponentWriteResult,
    errors: [404, 409],
  },
  {
    operationId: 'restoreComponent',
    field: 'Mutation.restoreComponent',
    method: 'POST',
    path: '/components/{id}/restore',
    tag: TAG,
    summary: 'Restore a deleted component',
    description: '409 when the component is not deleted.',
    params: idParam,
    status: 200,
    response: ComponentWriteResult,
    errors: [404, 409],
  },
  {
    operationId: 'installComponent',
    field: 'Mutation.installComponent',
    method: 'POST',
    path: '/components/{id}/install',
    tag: TAG,
    summary: 'Install a component',
    description:
      'Fits the component, and everything fitted to it, to an aircraft, vehicle or component. Counter bindings are rebuilt ' +
      'from mappings. 400 for an unknown parent or source; 409 when already installed, for a cycle, or under a component ' +
      'with canHaveChildren false.',
    params: idParam,
    body: InstallComponentBody,
    bodyArg: 'input',
    accept: checkedBy(checkBody.install),
    status: 200,
    response: ComponentWriteResult,
    errors: [400, 404, 409],
  },
  {
    operationId: 'removeComponent',
    field: 'Mutation.removeComponent',
    method: 'POST',
    path: '/components/{id}/remove',
    tag: TAG,
    summary: 'Remove a component from its parent',
    description: 'Bound counters freeze at their current values. The body may be left out (state inStores). 409 when not installed.',
    params: idParam,
    body: RemoveComponentBody,
    bodyArg: 'input',
    accept: checkedBy(checkBody.remove),
    optionalBody: true,
    status: 200,
    response: ComponentWriteResult,
    errors: [400, 404, 409],
  },
  {
    operationId: 'getInheritableSources',
    field: 'Query.inheritableSources',
    method: 'GET',
    path: '/components/{id}/inheritable-sources',
    tag: TAG,
    summary: 'What the component\u2019s counters could be mapped to under a parent',
    description: 'An aircraft\u2019s or vehicle\u2019s number maintenance items, or a component\u2019s sinceNew counters. 404 for an unknown parent.',
    params: idParam,
    query: z
      .object({
        parentType: z.enum(PARENT_TYPES, { error: `parentType must be one of ${PARENT_TYPES.join(', ')}` }),
        parentUid: z.string({ error: 'parentUid is required' }).min(1, 'parentUid is required'),
      })
      .strict(),
    status: 200,
    response: InheritableSourcesResponse,
    errors: [400, 404],
  },
  {
    operationId: 'resetComponentCounter',
    field: 'Mutation.resetComponentCounter',
    method: 'POST',
    path: '/components/{id}/counters/reset',
    tag: TAG,
    summary: 'Reset a counter',
    description: 'For sinceEvent counters (e.g. after an overhaul); a fitted counter re-binds from now. 409 for a sinceNew counter.',
    params: idParam,
    body: ResetCounterBody,
    bodyArg: 'input',
    accept: checkedBy(checkBody.reset),
    status: 200,
    response: ComponentWriteResult,
    errors: [400, 404, 409],
  },
]);
