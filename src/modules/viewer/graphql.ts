import { builder } from '../../graphql/builder.js';
import { ApiKeyType } from '../api-keys/graphql.js';
import { UserType } from '../users/graphql.js';
import type { Viewer, ViewerCompany } from './service.js';

/**
 * `viewer` on GraphQL (console/NEEDS.md §1): who a request is signed in as, readable by every key. A front end asks
 * it at sign-in to name the company and to offer what the key's scope allows.
 */
export const CompanyType = builder.objectRef<ViewerCompany>('Company').implement({
  description: 'The company a key belongs to.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
  }),
});

export const ViewerType = builder.objectRef<Viewer>('Viewer').implement({
  description: 'Who is signed in: the company, the API key of the request (never the key itself) and the user it acts as.',
  fields: (t) => ({
    company: t.field({ type: CompanyType, resolve: (v) => v.company }),
    key: t.field({
      type: ApiKeyType,
      description: 'The API key the request authenticated with; its scope says what the request may do (read, read_write, admin)',
      resolve: (v) => v.key,
    }),
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The user the key acts as: its own user, or else the company\u2019s owner (null when the company has none)',
      resolve: async (v, _a, ctx) => (v.userId ? ctx.services.loaders.user.load(v.userId) : null),
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerType,
    description: 'Who is signed in: the company, the request\u2019s API key with its scope, and the user it acts as. Any key may read it.',
    resolve: (_r, _a, ctx) => ctx.services.viewer.viewer(),
  }),
}));
