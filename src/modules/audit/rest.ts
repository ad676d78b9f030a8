import { defineRoutes } from '../../rest/contract.js';
import { AuditFilterSchema } from './service.js';

/** REST route of the audit log (docs/contract/gaps.md §12): runs Query.auditLog (admin keys only). */
export const auditRoutes = defineRoutes([
  {
    operationId: 'listAuditLog',
    field: 'Query.auditLog',
    method: 'GET',
    path: '/audit-log',
    tag: 'Administration',
    summary: 'Read the audit log',
    description:
      'Management writes (aircraft, users) and API key events, newest first: who (key, user), what (entity, id, action), when, each changed field before and after; never key material. Admin keys only.',
    query: AuditFilterSchema,
    status: 200,
    errors: [400, 403],
  },
]);
