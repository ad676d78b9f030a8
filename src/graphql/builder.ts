import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { getDatamodel } from '../generated/pothos-types.js';
import type PrismaTypes from '../generated/pothos-types.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { RequestContext } from '../context.js';
import { ForbiddenError } from '../errors.js';
import { canWrite, forbiddenMessage, type RequiredScope } from '../auth/scopes.js';
import { validationErrorFrom } from './validation.js';
import { InexactNumber, isExactNumberText } from '../lib/json-numbers.js';

/**
 * The one Pothos builder. Each module adds its types in src/modules/<domain>/graphql.ts.
 *
 * Key scopes (docs/decisions/0006-policy-at-the-operation.md) are Pothos auth scopes, checked on every field that
 * names one, whatever channel ran the operation: every mutation needs `write` (the Mutation type's default), fields
 * that manage the company add `admin`. Every key may read.
 */
export const builder = new SchemaBuilder<{
  Context: RequestContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { write: boolean; admin: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date | string };
  };
}>({
  defaultFieldNullability: false,
  // scope-auth first: no other plugin's wrapper runs before a field is authorised
  plugins: [ScopeAuthPlugin, PrismaPlugin, ValidationPlugin],
  scopeAuth: {
    authScopes: (ctx) => ({ write: canWrite(ctx.actor.scope), admin: ctx.actor.scope === 'admin' }),
    unauthorizedError: (_parent, ctx, info) => {
      const declared = info.parentType.getFields()[info.fieldName]?.extensions?.requiredScope as RequiredScope | undefined;
      return new ForbiddenError(forbiddenMessage(ctx.actor.scope, declared ?? 'write', info.fieldName));
    },
  },
  validation: {
    validationError: (result) => validationErrorFrom(result.issues),
  },
  prisma: {
    // relations load through the request's company-scoped client: a Proxy over the PrismaClient whose delegates add
    // the company to every query; its types narrow the delegates' arguments, so the plugin's PrismaClient type needs the widening
    client: (ctx) => ctx.db as unknown as PrismaClient,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

function parseLiteral(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      // as a JSON body's number (src/lib/json-numbers.ts): a batch item's inexact figure is that item's error
      return isExactNumberText(ast.value) ? Number(ast.value) : new InexactNumber(ast.value);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, parseLiteral(f.value, variables)]));
    case Kind.LIST:
      return ast.values.map((v) => parseLiteral(v, variables));
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      return undefined;
  }
}

builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    name: 'JSON',
    description: 'Any JSON value (objects keyed by tracking item, free-form form data, ...)',
    serialize: (v) => v,
    parseValue: (v) => v,
    parseLiteral,
  }),
);

builder.addScalarType(
  'DateTime',
  new GraphQLScalarType({
    name: 'DateTime',
    description: 'An ISO 8601 timestamp in UTC, e.g. 2026-01-31T08:30:00.000Z',
    serialize: (v) => (v instanceof Date ? v.toISOString() : String(v)),
    parseValue: (v) => {
      const d = typeof v === 'string' ? new Date(v) : null;
      if (!d || Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
      return d;
    },
    parseLiteral: (ast) => {
      const d = ast.kind === Kind.STRING ? new Date(ast.value) : null;
      if (!d || Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
      return d;
    },
  }),
);

builder.queryType({});
builder.mutationType({ authScopes: { write: true } });
