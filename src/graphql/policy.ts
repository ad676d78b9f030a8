import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  typeFromAST,
  valueFromAST,
  type ExecutionResult,
  TypeInfo,
  getOperationAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type InlineFragmentNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
  type ValidationContext,
  type ASTNode,
  type IntValueNode,
  type FloatValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { useQueryCancellation } from './compiled-queries.js';
import type { Logger } from 'pino';
import type { RequestContext } from '../context.js';
import { AppError, BadRequestError, ForbiddenError, RateLimitedError, ServiceUnavailableError, ValidationError } from '../errors.js';
import { forbiddenMessage, mayCall, type RequiredScope } from '../auth/scopes.js';
import { faultFieldMessage, faultMessage, findFault, MAX_JSON_DEPTH, PROTO_KEY_MESSAGE } from '../http/json-guard.js';
import { createIdempotency } from './idempotency.js';
import { inexactMessage, isExactNumberText } from '../lib/json-numbers.js';
import type { Session } from '../db/database.js';
import { appErrorAsGraphQL, unexpectedError } from './errors.js';
import { reportUnexpected } from '../lib/unexpected.js';
import { validationErrorFrom } from './validation.js';
import { checkOf } from './inputs.js';
import { fieldsOf } from './selections.js';

/**
 * The one policy of every request (docs/decisions/0006-policy-at-the-operation.md). Every channel (GraphQL over
 * HTTP, the REST façade, MCP tools) ends in a GraphQL operation run through the plugins below, so what is decided
 * here holds whatever the channel or content type:
 * - validation (the document as parsed): graphql-armor's depth, alias, token, directive and cost limits; at most
 *   MAX_MUTATIONS root mutation fields, fragments included; literals nested at most MAX_JSON_DEPTH deep; no NUL in
 *   literals, except inside an argument whose items are independent (batches report those per item); no `__proto__`
 *   key in a literal;
 * - execution (the operation with its variables as received): variables nested at most MAX_JSON_DEPTH deep and
 *   without NUL or a `__proto__` key (same exception); the rate-limit charge, one unit per executed root field
 *   (queries and mutations alike; at least one) (a request's first unit is charged when its key authenticates);
 *   idempotency per company and Idempotency-Key for mutations;
 * - per field: the key's scope (Pothos scope-auth, src/graphql/builder.ts).
 */
export const LIMITS = { maxDepth: 10, maxAliases: 20, maxTokens: 3000, maxDirectives: 20, maxCost: 20_000, maxMutations: 10, maxValueDepth: MAX_JSON_DEPTH };

const VALIDATION_ABORTED = 'Validation aborted.';
const TOO_COMPLEX = 'the document is too complex to validate: a selection repeats too many fields that must be compared with each other; select each field once';

/** The argument takes a list of independent items: a NUL in one item is that item's error (gaps §11), not the request's. */
export const INDEPENDENT_ITEMS = { independentItems: true } as const;
const independent = (arg: { extensions?: Record<string, unknown> } | null | undefined) => arg?.extensions?.independentItems === true;

const validationError = (message: string, node?: ASTNode) =>
  new GraphQLError(message, { nodes: node ? [node] : undefined, extensions: { code: 'VALIDATION_ERROR' } });

/** Literals: no NUL (outside independent items), nested at most maxValueDepth. */
const literalValues: ValidationRule = (context) => {
  const typeInfo = new TypeInfo(context.getSchema());
  let depth = 0;
  let reportedDepth = false;
  const nested = {
    enter(node: ASTNode) {
      if (++depth > LIMITS.maxValueDepth && !reportedDepth) {
        reportedDepth = true;
        context.reportError(validationError(`values may be nested at most ${LIMITS.maxValueDepth} levels deep`, node));
      }
    },
    leave() {
      depth--;
    },
  };
  return visitWithTypeInfo(typeInfo, {
    Argument: {
      enter() {
        // items are checked one by one by the batch runner: a NUL in one is that item's error
        if (independent(typeInfo.getArgument())) return false;
        return undefined;
      },
    },
    // an object or a list: one level deeper
    ObjectValue: nested,
    ListValue: nested,
    StringValue(node) {
      if (node.value.includes('\u0000')) context.reportError(validationError('strings must not contain the NUL character (\\u0000)', node));
    },
    // a number as written or refused (src/lib/json-numbers.ts), as variables' numbers are
    IntValue: exactNumber,
    FloatValue: exactNumber,
  });
  function exactNumber(node: IntValueNode | FloatValueNode) {
    if (!isExactNumberText(node.value)) {
      context.reportError(validationError(inexactMessage(node.value), node));
    }
  }
};

/**
 * No `__proto__` key in a literal, batch items included: only a JSON scalar's literal can have one (GraphQL names
 * starting with __ are reserved), and its parser would make the value the object's prototype before any item check.
 */
const protoKeys: ValidationRule = (context) => ({
  ObjectField(node) {
    if (node.name.value === '__proto__') context.reportError(validationError(PROTO_KEY_MESSAGE, node));
  },
});

const mutationCap: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== 'mutation') return;
    // the response keys it runs at its root, fragments followed (directives not evaluated: an upper bound)
    const n = new Set(fieldsOf([node.selectionSet], (name) => context.getFragment(name)).map((f) => (f.alias ?? f.name).value)).size;
    if (n > LIMITS.maxMutations) {
      context.reportError(validationError(`a request may run at most ${LIMITS.maxMutations} mutations (got ${n}); use the batch operations`, node));
    }
  },
});


/** The request's variables with the defaults its operation declares for those it leaves out (as graphql-js fills them in). */
function withDefaults(schema: GraphQLSchema, op: OperationDefinitionNode, variables: Record<string, unknown>): Record<string, unknown> {
  let out = variables;
  for (const d of op.variableDefinitions ?? []) {
    const name = d.variable.name.value;
    if (!d.defaultValue || Object.hasOwn(variables, name)) continue;
    const type = typeFromAST(schema, d.type as Parameters<typeof typeFromAST>[1]);
    if (!type) continue;
    const value = valueFromAST(d.defaultValue, type as Parameters<typeof valueFromAST>[1]);
    if (value !== undefined) out = { ...out, [name]: value };
  }
  return out;
}
/** The root fields an operation executes with these variables (fragments followed, @skip/@include evaluated). */
export function executedRootFields(
  schema: GraphQLSchema,
  document: DocumentNode,
  op: OperationDefinitionNode,
  variables: Record<string, unknown>,
): { node: FieldNode; def: GraphQLField<unknown, unknown> | undefined }[] {
  const root = schema.getRootType(op.operation);
  if (!root) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const included = (node: FieldNode | FragmentSpreadNode | InlineFragmentNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true && getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  const byKey = new Map<string, FieldNode>();
  const seen = new Set<string>();
  const defs = root.getFields();
  // depth first, in document order (the order the fields execute in)
  const stack: SelectionSetNode[] = [op.selectionSet];
  const visit = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (!included(s)) continue;
      if (s.kind === Kind.FIELD) {
        const key = (s.alias ?? s.name).value;
        if (!byKey.has(key)) byKey.set(key, s);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        stack.push(s.selectionSet);
        visitAll();
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const f = fragments.get(s.name.value);
        if (f) {
          stack.push(f.selectionSet);
          visitAll();
        }
      }
    }
  };
  const visitAll = () => {
    while (stack.length) visit(stack.pop()!);
  };
  visitAll();
  return [...byKey.values()].map((node) => ({ node, def: defs[node.name.value] }));
}

/** Variables as received: nested at most maxValueDepth, no NUL or `__proto__` key except in a variable that feeds independent items. */
function checkVariables(
  executed: ReturnType<typeof executedRootFields>,
  variables: Record<string, unknown> | null | undefined,
  document: DocumentNode,
): AppError | null {
  if (!variables) return null;
  // a variable is left to the batch runner only when every use of it feeds independent items: used anywhere else too
  // (another field's input), it is checked here whole
  const itemUses = new Map<string, number>();
  for (const { node, def } of executed) {
    for (const arg of node.arguments ?? []) {
      if (arg.value.kind === Kind.VARIABLE && independent(def?.args.find((a) => a.name === arg.name.value))) {
        itemUses.set(arg.value.name.value, (itemUses.get(arg.value.name.value) ?? 0) + 1);
      }
    }
  }
  const uses = new Map<string, number>();
  visit(document, {
    VariableDefinition: () => false,
    Variable: (v) => void uses.set(v.name.value, (uses.get(v.name.value) ?? 0) + 1),
  });
  const itemVariables = new Set([...itemUses].filter(([name, n]) => uses.get(name) === n).map(([name]) => name));
  for (const [name, value] of Object.entries(variables)) {
    const depth = valueDepth(value);
    if (depth > LIMITS.maxValueDepth) {
      return new ValidationError(`invalid request: $${name} is nested more than ${LIMITS.maxValueDepth} levels deep`, [
        { path: '', message: `nested more than ${LIMITS.maxValueDepth} levels deep` },
      ]);
    }
    if (itemVariables.has(name)) continue;
    const fault = findFault(value);
    if (fault !== null) {
      return new ValidationError(`invalid request: ${fault.at || `$${name}`}: ${faultMessage(fault)}`, [{ path: fault.at, message: faultFieldMessage(fault) }]);
    }
  }
  return null;
}

/** How deep objects and arrays nest in a value (iterative: a value a million levels deep is measured, not recursed). */
export function valueDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > LIMITS.maxValueDepth) return max;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === 'object') stack.push([x, depth]);
  }
  return max;
}

/**
 * When GraphQL refused an operation's variables before running it (a value its input types do not take), the
 * check of the input type each refused variable stands for (the service's schema, Pothos' validation plugin) is
 * run on the value as received: its ValidationError, with the service's message and paths, is the answer on every
 * channel. Null when there is nothing to explain (the schema took the value: GraphQL's own error stands).
 */
function explainRefusedVariables(schema: GraphQLSchema, op: OperationDefinitionNode, variables: Record<string, unknown>, result: ExecutionResult): AppError | null {
  if (!result.errors?.length || result.data !== undefined || result.errors.some((e) => e.path)) return null;
  for (const def of op.variableDefinitions ?? []) {
    const value = variables[def.variable.name.value];
    if (value === undefined) continue; // a variable not sent: GraphQL's own message names it
    const type = typeFromAST(schema, def.type);
    const named = type && getNamedType(type);
    if (!named || !isInputObjectType(named)) continue;
    const check = checkOf(named);
    if (!check) continue;
    const items = type && isListType(getNullableType(type)) && Array.isArray(value) ? value : [value];
    for (const [index, item] of items.entries()) {
      const outcome = check['~standard'].validate(item);
      if (outcome.issues?.length) {
        const err = validationErrorFrom(outcome.issues);
        return items === value ? indexed(err, index) : err;
      }
    }
  }
  return null;
}

const indexed = (e: ValidationError, index: number) =>
  new ValidationError(`item ${index}: ${e.message}`, e.errors?.map((f) => ({ ...f, path: `/${index}${f.path}` })));

/**
 * The 403 of the first executed root field the key's scope does not reach (what scope-auth answers when the field
 * runs), or null: for an operation refused before any field ran.
 */
function outOfScope(executed: ReturnType<typeof executedRootFields>, operation: string, ctx: RequestContext): AppError | null {
  for (const { node, def } of executed) {
    // `__typename` (and the introspection fields) read the schema, not the company: every key may
    if (node.name.value.startsWith('__')) continue;
    const required = (def?.extensions?.requiredScope as RequiredScope | undefined) ?? (operation === 'mutation' ? 'write' : 'read');
    if (!mayCall(ctx.actor.scope, required)) return new ForbiddenError(forbiddenMessage(ctx.actor.scope, required, node.name.value));
  }
  return null;
}

/** An AppError as the operation's only error: every channel maps it as it maps a resolver's. */
export const errorResult = (e: AppError) => ({ errors: [appErrorAsGraphQL(e)] });

/**
 * Uses `units` of the request's rate-limit budget (the request paid one when it authenticated; more are charged
 * to the key as its operations use them). The 429 when the key is over its limit, else null. An operation uses its
 * units here; a channel that refuses a call before it reaches an operation (an MCP tool call in a batch) uses one
 * the same way, so N calls cost N units whatever becomes of them.
 */
export async function useUnits(ctx: RequestContext, units: number): Promise<RateLimitedError | ServiceUnavailableError | null> {
  const state = ctx.request;
  state.units.used += units;
  if (state.units.used <= state.units.charged) return null;
  const more = state.units.used - state.units.charged;
  state.units.charged = state.units.used;
  try {
    await state.charge(more);
    return null;
  } catch (e) {
    if (e instanceof RateLimitedError || e instanceof ServiceUnavailableError) return e;
    throw e;
  }
}

export interface PolicyDeps {
  /** Honour Idempotency-Key (records in the database). */
  idempotency?: boolean;
  /** PostgreSQL: this process's own connection, whose advisory locks tell other processes a claim's owner is alive. */
  session?: Session;
  /** Who wrote what: each mutation is logged with its fields, key and user (never key material). */
  logger?: Pick<Logger, 'info'>;
  /** Counts operations by type (metrics). */
  onOperation?: (type: string) => void;
  /** A mutation ran (whatever its outcome): the company's maintenance alerts are evaluated (src/modules/alerts/monitor.ts). */
  afterWrite?: (companyId: string) => void;
}

export function operationPolicy(deps: PolicyDeps = {}): Plugin<{ fleet?: RequestContext }> {
  const idempotency = deps.idempotency ? createIdempotency({ session: deps.session }) : null;
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(literalValues);
      addValidationRule(protoKeys);
      addValidationRule(mutationCap);
      // graphql-js stops comparing a selection's fields with each other past a budget (a thousand copies of one
      // field) and says only "Validation aborted."; the client is told what to change
      return ({ result, setResult }) => {
        if (!result.some((e) => e.message === VALIDATION_ABORTED)) return;
        setResult(result.map((e) => (e.message === VALIDATION_ABORTED ? validationError(TOO_COMPLEX) : e)));
      };
    },
    async onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      // yoga merges the `fleet` server context into the execution context; its Plugin type does not say so
      const ctx = args.contextValue as unknown as RequestContext;
      const op = getOperationAST(args.document, args.operationName);
      if (!op || !ctx?.request) return;
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      // `@skip`/`@include` are decided on the variables the operation runs with, the document's defaults included
      // (`$admin: Boolean = false` left out of the request is false, not missing; graphql-js threw for it)
      const executed = executedRootFields(args.schema, args.document, op, withDefaults(args.schema, op, variables));
      if (ctx.request.channel === 'graphql') deps.onOperation?.(op.operation);
      // who wrote what, once the write is done: the fields, the key, its user and that user's roles (no key material)
      const log = ctx.request.log ?? deps.logger;
      const audit =
        op.operation === 'mutation' && log
          ? (result: { errors?: ReadonlyArray<{ originalError?: unknown }> }) => {
              const failed = result.errors?.map((e) => (e.originalError instanceof AppError ? e.originalError.code : 'error'));
              log.info(
                {
                  audit: 'write',
                  operation: executed.map((f) => f.node.name.value).join(','),
                  channel: ctx.request.channel,
                  keyId: ctx.actor.keyId,
                  userId: ctx.actor.userId,
                  roles: ctx.actor.roles ?? [],
                  outcome: failed?.length ? failed.join(',') : 'ok',
                },
                'write',
              );
            }
          : null;
      // the key's scope, decided for the operation before anything runs: a field the key may not call refuses the
      // whole operation (403), whatever its input (Pothos validates arguments before the field's own scope check),
      // and before any other field of it has written
      const forbidden = outOfScope(executed, op.operation, ctx);
      if (forbidden) {
        const result = errorResult(forbidden);
        audit?.(result);
        return setResultAndStopExecution(result);
      }
      const refused = checkVariables(executed, variables, args.document);
      if (refused) return setResultAndStopExecution(errorResult(refused));

      // the rate limit: one unit per executed root field (`__typename` and introspection aside), at least one: twenty
      // aliased aggregates cost what twenty REST requests or MCP tool calls for them cost
      const units = Math.max(1, executed.filter((f) => !f.node.name.value.startsWith('__')).length);
      const limited = await useUnits(ctx, units);
      if (limited) return setResultAndStopExecution(errorResult(limited));
      const state = ctx.request;

      let claim: Extract<Awaited<ReturnType<NonNullable<typeof idempotency>['claim']>>, { kind: 'run' }> | null = null;
      // a header sent empty is a key too, and a bad one (400): never a write without the protection the client asked for
      if (op.operation === 'mutation' && state.idempotencyKey !== undefined && idempotency) {
        // an answer that holds a secret (a new API key) is never stored, so it cannot be replayed
        const secret = executed.find((f) => f.def?.extensions?.secretResult === true);
        if (secret) {
          return setResultAndStopExecution(
            errorResult(new BadRequestError(`Idempotency-Key is not accepted by ${secret.node.name.value}: its answer holds a secret, which is never stored (send the request without it)`)),
          );
        }
        const c = await idempotency.claim(ctx, args.document, args.operationName ?? null, variables);
        if (c.kind === 'refused') return setResultAndStopExecution(errorResult(c.error));
        if (c.kind === 'replay') {
          state.headers['idempotent-replayed'] = 'true';
          return setResultAndStopExecution(c.result);
        }
        claim = c;
      }
      // a channel that maps its own representation to the operation's variables does it here, inside the
      // operation: its refusal is the operation's result (kept for a repeat like any other)
      if (state.prepare) {
        let prepared: Record<string, unknown>;
        try {
          prepared = state.prepare(variables);
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          const result = errorResult(e);
          await claim?.settle(result);
          audit?.(result);
          return setResultAndStopExecution(result);
        }
        setExecuteFn((a) => executeFn({ ...a, variableValues: prepared }));
      }
      return {
        async onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in (result as object)) return; // no streamed results here
          // variables GraphQL's types refused: the service's own check says what is wrong, in its words (the key's
          // scope was decided before, whatever its input)
          const explained = explainRefusedVariables(args.schema, op, variables, result as ExecutionResult);
          const final = explained ? errorResult(explained) : (result as ExecutionResult);
          if (explained) setResult(final);
          await claim?.settle(final);
          audit?.(final);
          // a bug in a resolver, logged with its request (GraphQL masks it; REST and MCP log it where they map it)
          if (ctx.request.channel === 'graphql') {
            for (const e of final.errors ?? []) {
              if (!unexpectedError(e)) continue;
              reportUnexpected(e.originalError, { channel: 'graphql', path: e.path }, ctx.request.log);
            }
          }
          if (op.operation === 'mutation' && !explained) deps.afterWrite?.(ctx.companyId);
        },
      };
    },
  };
}

/**
 * graphql-armor's validation limits (depth, aliases, directives, cost) report their refusal as a validation error of
 * the document, like every other refusal of the policy (a 400 with `extensions.code`): by default they throw from
 * inside validation, which reached the client as a bare message beginning "Syntax Error:" with HTTP 200. The token
 * limit is the parser's, and its refusal a syntax error (400) already.
 */
const armorRefusal = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(validationError(error.message.replace(/^Syntax Error: /, '')))],
};

/** Every GraphQL plugin of the policy, for Yoga and for the internal executor alike. */
export function policyPlugins(production: boolean, deps: PolicyDeps): Plugin[] {
  return [
    useQueryCancellation(),
    EnvelopArmorPlugin({
      maxDepth: { n: LIMITS.maxDepth, ...armorRefusal },
      maxAliases: { n: LIMITS.maxAliases, ...armorRefusal },
      maxTokens: { n: LIMITS.maxTokens },
      maxDirectives: { n: LIMITS.maxDirectives, ...armorRefusal },
      costLimit: { maxCost: LIMITS.maxCost, ...armorRefusal },
      blockFieldSuggestion: { enabled: production },
    }) as Plugin,
    operationPolicy(deps) as Plugin,
  ];
}
