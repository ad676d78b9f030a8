import { z } from 'zod';
import { defineRoutes, named } from '../../rest/contract.js';
import { PARENT_TYPES } from './counters.js';
import { ComponentFilterSchema, CounterInputSchema, CounterMappingSchema, CreateSchema, InstallSchema, RemoveSchema, ResetSchema, UpdateSchema } from './schema.js';

/**
 * REST routes of components (docs/contract/api-v1.md §2.15, docs/contract/gaps.md §3 "Components"): declarations
 * only; each runs its GraphQL field, and the body is the REST representation of its GraphQL type (src/rest/facade.ts,
 * src/rest/representation.ts).
 */
// Request bodies: the service's own schemas (src/modules/components/schema.ts), by name in the document
named('ComponentCounterInput', CounterInputSchema);
named('CounterMapping', CounterMappingSchema);
export const CreateComponentBody = named('CreateComponentBody', CreateSchema);
export const UpdateComponentBody = named('UpdateComponentBody', UpdateSchema);
export const InstallComponentBody = named('InstallComponentBody', InstallSchema);
export const RemoveComponentBody = named('RemoveComponentBody', RemoveSchema);
export const ResetCounterBody = named('ResetCounterBody', ResetSchema);
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
    description: 'Soft-deleted components are left out unless includeDeleted=true. Ordered by name, serial number, uid. Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: ComponentFilterSchema,
    status: 200,
    errors: [400],
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
    errors: [404],
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
    status: 201,
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
    status: 200,
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
    status: 200,
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
    optionalBody: true,
    status: 200,
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
    status: 200,
    errors: [400, 404, 409],
  },
]);
