import type * as runtime from '@prisma/client/runtime/client';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';

/**
 * The company-scoped Prisma client every request works through. Each model query gets `companyId` added to its
 * `where` (reads, updates, deletes) or its `data` (creates), so a record of another company is simply not there.
 * `Company` is scoped by its `id`. It wraps a client or a transaction client alike (`$transaction` hands the
 * callback a scoped transaction client). An operation it does not know is refused, and write data may not set or
 * change `companyId`. Raw SQL names the company with `COMPANY` (below), which the client binds; a statement that does
 * not name it is refused, as is every other client-level operation that would run unscoped (`$queryRawUnsafe`, ...).
 */
const WHERE_OPS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
  'upsert',
]);
const CREATE_OPS = new Set(['create', 'createMany', 'createManyAndReturn']);
/** Operations that write: outside a transaction, each runs with the request's beforeCommit (TransactionHooks). */
const WRITE_OPS = new Set([...CREATE_OPS, 'update', 'updateMany', 'updateManyAndReturn', 'upsert', 'delete', 'deleteMany']);

// The client answers to a model's name as well as to its camelCase delegate key (`Vehicle` and `vehicle`, not in
// its types): both are scoped, or the one left out would be the unscoped delegate.
const DELEGATES = new Map<string, string>(
  Object.values(Prisma.ModelName).flatMap((m) => [[m.charAt(0).toLowerCase() + m.slice(1), m] as const, [m, m] as const]),
);

/** Write data must never set or move a record's company: only the scope decides it. */
function refuseCompanyInData(model: string, operation: string, data: unknown, key: string, companyId: string, creating: boolean) {
  for (const d of Array.isArray(data) ? data : [data]) {
    if (!d || typeof d !== 'object' || !(key in d)) continue;
    const v = (d as Record<string, unknown>)[key];
    if (creating && v === companyId) continue; // the scope's own company, said again
    throw new Error(`${model}.${operation}: write data must not set ${key} (the company-scoped client sets it)`);
  }
}

function scopeArgs(model: string, operation: string, args: any, companyId: string): any {
  const a = { ...(args ?? {}) };
  const key = model === 'Company' ? 'id' : 'companyId';
  if (operation.startsWith('update')) refuseCompanyInData(model, operation, a.data, key, companyId, false);
  if (operation === 'upsert') {
    refuseCompanyInData(model, operation, a.update, key, companyId, false);
    refuseCompanyInData(model, operation, a.create, key, companyId, true);
  }
  if (CREATE_OPS.has(operation)) refuseCompanyInData(model, operation, a.data, key, companyId, true);
  if (WHERE_OPS.has(operation)) a.where = { ...(a.where ?? {}), [key]: companyId };
  if (operation === 'upsert') a.create = { ...(a.create ?? {}), [key]: companyId };
  if (CREATE_OPS.has(operation)) {
    if (model === 'Company') throw new Error('a company cannot be created through a company-scoped client');
    a.data = Array.isArray(a.data) ? a.data.map((d: any) => ({ ...d, companyId })) : { ...a.data, companyId };
  }
  return a;
}

export type TxClient = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

/*
 * The types say what the runtime rules above do, so services write data without casts and cannot set companyId.
 *
 * Prisma types write data as XOR<relation form, scalar form> (e.g. `company: { connect }` or `companyId`). The
 * scope adds the scalar companyId to every create, and Prisma refuses a relation field next to a scalar foreign
 * key, so only the scalar ("unchecked") form can run: the other branch (the one where companyId is `never`) is
 * dropped, and with it the `company` relation and relation-form links such as FlightLog's `aircraft: { connect }`
 * through which a record could be moved to another company's row. What is left loses companyId, which may not be
 * said at all (`?: never`), so a spread of a wider object that carries one does not type-check either.
 */
type ScopeKey<M extends Prisma.ModelName> = M extends 'Company' ? 'id' : 'companyId';
type ScopedData<D, K extends string> = D extends readonly (infer E)[]
  ? ScopedData<E, K>[]
  : D extends { [P in K]?: never }
    ? never
    : Omit<D, K> & { [P in K]?: never };

/** The operations whose write data the scope owns a column of; all others keep Prisma's own signatures. */
type WriteOp = 'create' | 'createMany' | 'createManyAndReturn' | 'update' | 'updateMany' | 'updateManyAndReturn' | 'upsert';

type Args<M extends Prisma.ModelName, Op extends WriteOp> = Prisma.TypeMap['model'][M]['operations'][Op]['args'];
type Data<A> = A extends { data: infer D } ? D : never;
type Payload<M extends Prisma.ModelName> = Prisma.TypeMap['model'][M]['payload'];

/** Prisma's arguments of `Op` on model `M`, with write data a company-scoped client can run. */
export type ScopedArgs<M extends Prisma.ModelName, Op extends WriteOp> = Op extends 'upsert'
  ? Omit<Args<M, Op>, 'create' | 'update'> & {
      create: ScopedData<Data<Args<M, 'create'>>, ScopeKey<M>>;
      update: ScopedData<Data<Args<M, 'update'>>, ScopeKey<M>>;
    }
  : Omit<Args<M, Op>, 'data'> & { data: ScopedData<Data<Args<M, Op>>, ScopeKey<M>> };

/** A new row of model `M` as a company-scoped client writes it (no companyId): `create` and `createMany` take it. */
export type ScopedCreate<M extends Prisma.ModelName> = Exclude<ScopedArgs<M, 'createMany'>['data'], readonly unknown[]>;
/** Update data of model `M` (`updateMany`) for a company-scoped client: it cannot set companyId. */
export type ScopedUpdate<M extends Prisma.ModelName> = ScopedArgs<M, 'updateMany'>['data'];

type Write<M extends Prisma.ModelName, Op extends WriteOp> = <T extends ScopedArgs<M, Op>>(
  args: Prisma.SelectSubset<T, ScopedArgs<M, Op>>,
) => Prisma.PrismaPromise<Result<M, T, Op>>;
type Result<M extends Prisma.ModelName, T, Op extends WriteOp> = Op extends 'createMany' | 'updateMany'
  ? Prisma.BatchPayload
  : runtime.Types.Result.GetResult<Payload<M>, T, Op>;

/** A model delegate whose write methods take scoped data; a company cannot be created through one (see above). */
type ScopedDelegate<M extends Prisma.ModelName> = Omit<TxClient[Uncapitalize<M>], WriteOp> &
  (M extends 'Company' ? { [Op in Exclude<WriteOp, 'create' | 'createMany' | 'createManyAndReturn'>]: Write<M, Op> } : { [Op in WriteOp]: Write<M, Op> });

/** A nested call joins the outer transaction as it is, whatever these say. */
type TransactionOptions = { timeout?: number; maxWait?: number; isolationLevel?: Prisma.TransactionIsolationLevel };

/**
 * Client-level operations a scoped client refuses: each would run SQL or reach a client without the scope
 * (docs/decisions/0004). `$queryRaw` and `$executeRaw` stay: they must name the company (COMPANY below).
 */
type Unscoped = '$queryRawUnsafe' | '$executeRawUnsafe' | '$queryRawTyped' | '$runCommandRaw' | '$parent' | '$queryRawInternal' | '$executeRawInternal';

export type ScopedPrisma = Omit<TxClient, Uncapitalize<Prisma.ModelName> | Unscoped> & {
  [M in Prisma.ModelName as Uncapitalize<M>]: ScopedDelegate<M>;
} & {
  readonly companyId: string;
  /**
   * True when a write statement run here commits together with the request's `beforeCommit` (outside a transaction,
   * with an Idempotency-Key claim): the claim is marked committed with it even when the statement writes nothing. A
   * write that may write nothing (conditional on what was read, then planned again under locks) takes its locked
   * path at once instead, so a claim is marked committed only with the write it stands for.
   */
  readonly commitsWithHook: boolean;
  /** Interactive transaction on a scoped transaction client (nested calls join the outer transaction). */
  $transaction<T>(fn: (tx: ScopedPrisma) => Promise<T>, options?: TransactionOptions): Promise<T>;
};

/**
 * Where raw SQL names the company: `WHERE "companyId" = ${COMPANY}`, in a `$queryRaw` or `$executeRaw` template of a
 * scoped client or in a `Prisma.sql` fragment it runs. The client binds its own company there, so a statement takes
 * its company from the client that runs it, as model operations do, and never from a variable at hand. Run by any
 * other client it is refused (Prisma serializes it with toJSON), not bound to something else.
 */
export const COMPANY = Object.freeze({
  toJSON(): never {
    throw new Error('COMPANY is bound only by the $queryRaw and $executeRaw of a company-scoped client');
  },
});

/**
 * Why a statement may cross companies. Request code reaches the unscoped client only through `crossCompany`, each
 * call with one of these reasons, so every statement that is not company-scoped can be found by its name
 * (docs/decisions/0004). Everything else a request does goes through `scopedPrisma`.
 */
export type CrossCompanyReason =
  /** the delivery dispatcher claims pending outbox rows of every company: one queue per database */
  | 'delivery outbox'
  /** authentication finds a key, and with it its company, by the key's hash */
  | 'key by hash'
  /** the maintenance-alert sweep finds the companies that have saved alert settings (each is then evaluated scoped) */
  | 'alert sweep'
  /** `fleetops keys revoke KEY_ID` (the operator on the server's host) finds a key, and with it its company, by its id */
  | 'key by id'
  /** an anonymous public-form request finds its form, and with it its company, by the form's publicId */
  | 'public form by publicId';

/** The unscoped client, for a statement that crosses companies on purpose (see CrossCompanyReason). */
export function crossCompany<C extends PrismaClient | TxClient>(client: C, reason: CrossCompanyReason): C {
  void reason; // the reason is for the reader and for grep: the client is the same
  return client;
}

/** The statement with `COMPANY` bound to `companyId`, or undefined when it does not name the company. */
function bindCompany(query: TemplateStringsArray | Prisma.Sql, values: unknown[], companyId: string): Prisma.Sql | undefined {
  const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  if (!sql.values.includes(COMPANY)) return undefined;
  return new Prisma.Sql(sql.strings, sql.values.map((v) => (v === COMPANY ? companyId : v)));
}

/**
 * What a request adds to each transaction it opens through its scoped client: `beforeCommit` runs as the last
 * statement of every top-level transaction, and a write statement outside one (a model write, `$executeRaw`,
 * `$queryRaw`) runs in a transaction with it. The Idempotency-Key claim marks itself committed this way, in the
 * write's own transaction (src/graphql/idempotency.ts); the hook's own model (IdempotencyKey) is left alone.
 */
export interface TransactionHooks {
  beforeCommit?: (tx: ScopedPrisma) => Promise<unknown>;
}

export function scopedPrisma(client: PrismaClient | TxClient, companyId: string, inTransaction = false, hooks?: TransactionHooks): ScopedPrisma {
  const delegates = new Map<string, unknown>();
  /** A statement outside a transaction, while the request has a beforeCommit: both in one transaction (Prisma's batch form). */
  const alone = (statement: unknown): unknown => {
    const before = hooks?.beforeCommit;
    const t = client as PrismaClient;
    if (inTransaction || !before || typeof t.$transaction !== 'function') return statement;
    return t.$transaction([statement, before(scoped)] as Prisma.PrismaPromise<unknown>[]).then((results) => results[0]);
  };
  const scoped: ScopedPrisma = new Proxy(client as object, {
    get(target, prop, receiver) {
      if (prop === 'companyId') return companyId;
      if (prop === 'commitsWithHook') return !inTransaction && !!hooks?.beforeCommit;
      if (prop === '$transaction') {
        return <T>(fn: (tx: ScopedPrisma) => Promise<T>, options?: object) => {
          const t = target as PrismaClient;
          // already in a transaction: join it (Prisma's transaction client would open a savepoint, which not every
          // driver adapter supports)
          if (inTransaction || typeof t.$transaction !== 'function') return fn(receiver as ScopedPrisma);
          return t.$transaction(
            async (tx) => {
              const inner = scopedPrisma(tx as TxClient, companyId, true);
              const out = await fn(inner);
              if (hooks?.beforeCommit) await hooks.beforeCommit(inner);
              return out;
            },
            { timeout: 20_000, maxWait: 20_000, ...options },
          );
        };
      }
      if (prop === '$queryRaw' || prop === '$executeRaw') {
        const run = Reflect.get(target, prop) as (query: Prisma.Sql) => unknown;
        return (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
          const bound = bindCompany(query, values, companyId);
          // a statement that does not name the company would run over every company's rows: refused, never run
          if (!bound) {
            throw new Error(
              `${prop} on a company-scoped client must name the company with \${COMPANY} (a statement that crosses companies on purpose goes through crossCompany)`,
            );
          }
          return alone(run.call(target, bound));
        };
      }
      // every other client-level operation ($queryRawUnsafe, $executeRawUnsafe, $queryRawTyped, $runCommandRaw,
      // $parent, $extends, ...) would run without the scope: refused, as an unknown delegate operation is
      if (typeof prop === 'string' && prop.startsWith('$')) {
        return () => {
          throw new Error(`${prop} is not supported by the company-scoped client (it would run unscoped)`);
        };
      }
      const model = typeof prop === 'string' ? DELEGATES.get(prop) : undefined;
      if (!model) return Reflect.get(target, prop, receiver);
      let d = delegates.get(prop as string);
      if (!d) {
        const inner = Reflect.get(target, prop) as Record<string, (args?: unknown) => unknown>;
        d = new Proxy(inner, {
          get(t, op) {
            // a delegate's way back to its client leads to the scoped client, never to the one it wraps
            if (op === '$parent') return scoped;
            const fn = Reflect.get(t, op);
            if (typeof fn !== 'function' || typeof op !== 'string') return fn;
            // an operation this client does not know how to scope is refused, never run unscoped
            if (!WHERE_OPS.has(op) && !CREATE_OPS.has(op)) {
              return () => {
                throw new Error(`${model}.${op} is not supported by the company-scoped client`);
              };
            }
            if (WRITE_OPS.has(op) && model !== 'IdempotencyKey') return (args?: unknown) => alone(fn.call(t, scopeArgs(model, op, args, companyId)));
            return (args?: unknown) => fn.call(t, scopeArgs(model, op, args, companyId));
          },
        });
        delegates.set(prop as string, d);
      }
      return d;
    },
  }) as ScopedPrisma;
  return scoped;
}
