import { PrismaPg } from '@prisma/adapter-pg';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
import pg from 'pg';
import { pgPool } from './pg-pool.js';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
} from '@prisma/driver-adapter-utils';
import type { DiffParams, DiffTarget, SchemaEngine } from '@prisma/schema-engine-wasm';

/**
 * Prisma's schema engine, as Wasm (`@prisma/schema-engine-wasm`, pinned to the engines commit of `prisma`), used to
 * compute migration SQL without the native engine (see docs/decisions/0002-migrations-without-engine.md).
 *
 * The package imports its .wasm as an ES module, which Node 20 refuses, so the module is instantiated by hand, once,
 * on first use. Each diff creates one engine instance and frees it (and the connections it opened) afterwards.
 */

/** What to diff: nothing, a Prisma schema text, or a live database. */
export type DiffSource =
  | { kind: 'empty' }
  | { kind: 'schema'; text: string; /** file name shown in engine errors */ path?: string }
  | DatabaseSource;

/**
 * A live database: a PostgreSQL server by its URL (the engine opens connections of its own there, see
 * {@link pgEngineFactory}), or a driver adapter factory whose column types cover the engine's introspection queries
 * (PGlite's). A `@prisma/adapter-pg` factory is refused: it cannot read those queries' results.
 */
export type DatabaseSource =
  | { kind: 'database'; url: string }
  | { kind: 'database'; adapterFactory: SqlMigrationAwareDriverAdapterFactory };

/** An error reported by the schema engine (or by the driver adapter it used); `message` is the engine's. */
export class SchemaEngineError extends Error {
  override name = 'SchemaEngineError';
  /** Prisma error code (e.g. P1012 for schema validation errors), when the engine gave one. */
  code?: string;
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.code) this.code = options.code;
  }
}

/**
 * SQL script migrating `from` into `to`. No difference gives exactly `''` (see {@link isEmptyDiff}); otherwise the
 * script, ending with a newline. Rejects with a {@link SchemaEngineError} carrying the engine's message.
 */
export function diffSql(from: DiffSource, to: DiffSource): Promise<string> {
  // One call at a time: PGlite is a single connection anyway, and the engine's Wasm state is shared by all instances.
  const run = queue.then(() => runDiff(from, to));
  queue = run.catch(() => undefined);
  return run;
}

/** True when a migration script does nothing: empty, or only comments and whitespace (e.g. "-- This is an empty migration."). */
export function isEmptyDiff(sql: string): boolean {
  return (
    sql
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/--[^\n]*/g, '')
      .trim() === ''
  );
}

/** The prisma-engines commit the loaded Wasm schema engine was built from. */
export async function schemaEngineVersion(): Promise<string> {
  return (await loadEngine()).version();
}

// ---------------------------------------------------------------------------------------------------------------------

type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

let queue: Promise<unknown> = Promise.resolve();
let loading: Promise<EngineModule> | undefined;

function loadEngine(): Promise<EngineModule> {
  loading ??= instantiate().catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

async function instantiate(): Promise<EngineModule> {
  const require = createRequire(import.meta.url);
  const jsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bg: EngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  // The engine's panic hook reports through this global (Prisma's CLI installs one); without it a panic turns into an
  // unrelated TypeError. A panic inside the engine is fatal for the process either way: it surfaces as an uncaught
  // `RuntimeError: unreachable` from a microtask, which is why this module never hands the engine a missing adapter.
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
  g.PRISMA_WASM_PANIC_REGISTRY ??= new PanicRegistry();
  const bytes = await fs.promises.readFile(jsPath.replace(/\.js$/, '.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, {
    // the engine's generated glue module is the wasm's import object; its declared type lists functions only by name
    './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return bg;
}

class PanicRegistry {
  private message = '';
  get(): string {
    return this.message;
  }
  set_message(message: string): void {
    this.message = `RuntimeError: ${message}`;
  }
}

/** The engine logs JSON lines; shown on stderr with DEBUG=schema-engine. */
function logLine(line: string): void {
  if (/\bschema-engine\b/.test(process.env.DEBUG ?? '')) process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
}

const NO_FILTERS: DiffParams['filters'] = { externalTables: [], externalEnums: [] };

async function runDiff(from: DiffSource, to: DiffSource): Promise<string> {
  if (from.kind === 'empty' && to.kind === 'empty') return ''; // the engine cannot even pick a connector for this
  const databases = [from, to].filter((s): s is DatabaseSource => s.kind === 'database');
  const [database, other] = databases;
  if (database && other && !sameDatabase(database, other)) {
    throw new SchemaEngineError('diffSql: cannot diff two different databases in one call (one adapter per engine)');
  }
  if (database && 'adapterFactory' in database && database.adapterFactory.adapterName === PG_ADAPTER) {
    throw new SchemaEngineError(
      `diffSql: pass a PostgreSQL database as { kind: 'database', url }: the engine's queries return "char" columns, which ${PG_ADAPTER} cannot read`,
    );
  }
  const bg = await loadEngine();
  const pgEngine = database && 'url' in database ? pgEngineFactory(database.url) : undefined;
  const base = pgEngine?.factory ?? (database && 'adapterFactory' in database ? database.adapterFactory : offlineFactory());
  const connections = trackConnections(base);
  const bound = bindMigrationAwareSqlAdapterFactory(connections.factory);
  let engine: SchemaEngine | undefined;
  try {
    // `new` connects at once (and probes the server version); the engine needs an adapter even for schema-only diffs.
    engine = await bg.SchemaEngine.new({ datamodels: undefined }, logLine, bound);
    const result = await engine.diff({
      from: target(from),
      to: target(to),
      script: true,
      exitCode: true, // 0: no difference, 2: difference
      filters: NO_FILTERS,
    });
    const script = result.stdout ?? '';
    if (result.exitCode === 0 || isEmptyDiff(script)) return '';
    return script.endsWith('\n') ? script : `${script}\n`;
  } catch (e) {
    throw engineError(e, bound);
  } finally {
    try {
      engine?.free();
    } catch {
      // already freed or poisoned: nothing more to release
    }
    // The engine does not dispose the connections it opened when freed (seen with 7.10.0): do it here.
    await connections.disposeAll();
    await pgEngine?.close();
  }
}

const PG_ADAPTER = '@prisma/adapter-pg';

function sameDatabase(a: DatabaseSource, b: DatabaseSource): boolean {
  if ('url' in a) return 'url' in b && a.url === b.url;
  return 'adapterFactory' in b && a.adapterFactory === b.adapterFactory;
}

function target(source: DiffSource): DiffTarget {
  switch (source.kind) {
    case 'empty':
      return { tag: 'empty' };
    case 'schema':
      return { tag: 'schemaDatamodel', files: [{ path: source.path ?? 'schema.prisma', content: source.text }] };
    case 'database': {
      // "schemaDatasource" = the live database of the schema's datasource, reached through the engine's adapter.
      // (The "url" target is rejected by this engine: "--from-url and --to-url flags are no longer supported".)
      const adapterProvider = 'url' in source ? 'postgres' : source.adapterFactory.provider;
      const provider = PRISMA_PROVIDER[adapterProvider] ?? adapterProvider;
      const content = `datasource db {\n  provider = "${provider}"\n}\n`;
      return { tag: 'schemaDatasource', files: [{ path: 'datasource.prisma', content }], configDir: process.cwd() };
    }
  }
}

const PRISMA_PROVIDER: Record<string, string> = { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite', sqlserver: 'sqlserver' };

/** Wraps a factory so every connection the engine opens is disposed (once) after the diff. */
function trackConnections(base: SqlMigrationAwareDriverAdapterFactory) {
  const opened: SqlDriverAdapter[] = [];
  const track = (adapter: SqlDriverAdapter) => {
    const dispose = adapter.dispose.bind(adapter);
    let disposed: Promise<void> | undefined;
    adapter.dispose = () => (disposed ??= dispose());
    opened.push(adapter);
    return adapter;
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => track(await base.connect()),
    connectToShadowDb: async () => track(await base.connectToShadowDb()),
  };
  for (const sym of Object.getOwnPropertySymbols(base)) {
    Reflect.set(factory, sym, Reflect.get(base, sym));
  }
  return {
    factory,
    async disposeAll() {
      await Promise.allSettled(opened.splice(0).map((a) => a.dispose()));
    },
  };
}

/**
 * The engine's own pool on a PostgreSQL server, ended after the diff. Its introspection queries return `"char"`
 * columns (OID 18, e.g. pg_class.relkind), which @prisma/adapter-pg 7.10.0 rejects ("Column type 'char' could not be
 * deserialized"); pg gives their values as strings, so this pool's clients report them as `text` (OID 25).
 * Public API only: pg-pool's `Client` option (node_modules/pg-pool/README.md) and `new PrismaPg(pool)`.
 */
function pgEngineFactory(url: string): { factory: SqlMigrationAwareDriverAdapterFactory; close: () => Promise<void> } {
  const pool = pgPool({ connectionString: url, Client: CharAsTextClient, application_name: ENGINE_APPLICATION_NAME });
  return { factory: new PrismaPg(pool), close: () => pool.end() };
}

/** The `application_name` of the engine's connections (unless the URL sets one). */
export const ENGINE_APPLICATION_NAME = 'fleetops schema engine';

const PG_CHAR = 18;
const PG_TEXT = 25;

/** A pg client whose query results report `"char"` columns as `text` (see {@link pgEngineFactory}). */
class CharAsTextClient extends pg.Client {
  // https://node-postgres.com/apis/client#clientquery: a promise of the result, or the result to a callback given last
  // (pg.Pool#query passes one); a Submittable is returned as is. `any`: matches all of @types/pg's overloads.
  override query(...args: unknown[]): any {
    const last = args.at(-1);
    if (typeof last === 'function') {
      const callback = (err: unknown, result: unknown) => (last as (e: unknown, r: unknown) => void)(err, err ? result : charAsText(result));
      return Reflect.apply(super.query, this, [...args.slice(0, -1), callback]);
    }
    const out: unknown = Reflect.apply(super.query, this, args);
    return isThenable(out) ? out.then(charAsText) : out;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** Rewrites the column types of a pg result (or of each of a multi-statement query's results). */
function charAsText<T>(result: T): T {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const field of (r as Partial<pg.QueryResult> | undefined)?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR) field.dataTypeID = PG_TEXT;
    }
  }
  return result;
}

/**
 * Stand-in connection for diffs without a database side (empty/schema to empty/schema): the engine insists on an
 * adapter and runs one probe query when created, and a missing adapter makes it panic (which kills the process).
 */
function offlineFactory(): SqlMigrationAwareDriverAdapterFactory {
  const refuse = async (): Promise<never> => {
    throw new Error('this diff has no database side, but the schema engine tried to use one');
  };
  const adapter: SqlDriverAdapter = {
    provider: 'postgres',
    adapterName: 'fleetops-offline',
    async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
      // SELECT EXISTS(SELECT 1 FROM pg_namespace WHERE nspname = $1), version(), current_setting('server_version_num')::integer
      if (/^\s*SELECT EXISTS\(SELECT 1 FROM pg_namespace/i.test(query.sql)) {
        return {
          columnNames: ['exists', 'version', 'numeric_version'],
          columnTypes: [ColumnTypeEnum.Boolean, ColumnTypeEnum.Text, ColumnTypeEnum.Int32],
          rows: [[true, 'PostgreSQL 16.0 (no database: schema-only diff)', 160000]],
        };
      }
      return refuse();
    },
    executeRaw: refuse,
    executeScript: refuse,
    startTransaction: refuse,
    dispose: async () => {},
  };
  return {
    provider: 'postgres',
    adapterName: 'fleetops-offline',
    connect: async () => adapter,
    connectToShadowDb: refuse,
  };
}

function engineError(e: unknown, bound: ErrorCapturingSqlMigrationAwareDriverAdapterFactory): SchemaEngineError {
  if (e instanceof SchemaEngineError) return e;
  const raw = e instanceof Error ? e.message : String(e);
  // Drop the Rust span trace ("   0: schema_engine_wasm::wasm::engine::Diff\n      at ....rs:242") the engine appends.
  let message = raw.replace(/\n\s+\d+: \w+(::\w+)+[\s\S]*$/, '').trimEnd();
  // Errors thrown by the JS adapter reach the engine only as an id into the factory's error registry.
  let cause: unknown = e;
  const id = /External error id#(\d+)/.exec(message);
  if (id) {
    const original = bound.errorRegistry.consumeError(Number(id[1]))?.error;
    if (original !== undefined) {
      cause = original;
      message = message.replace(id[0], original instanceof Error ? original.message : String(original));
    }
  }
  const code = (e as { code?: unknown } | null)?.code;
  return new SchemaEngineError(message || 'schema engine failed', {
    cause,
    code: typeof code === 'string' ? code : undefined,
  });
}
