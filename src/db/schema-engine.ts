import fs from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
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

/** What to diff: nothing, a Prisma schema text, or a live database reached through a driver adapter factory. */
export type DiffSource =
  | { kind: 'empty' }
  | { kind: 'schema'; text: string; /** file name shown in engine errors */ path?: string }
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
  const factories = [from, to].flatMap((s) => (s.kind === 'database' ? [s.adapterFactory] : []));
  if (factories.length === 2 && factories[0] !== factories[1]) {
    throw new SchemaEngineError('diffSql: cannot diff two different databases in one call (one adapter per engine)');
  }
  const bg = await loadEngine();
  const connections = trackConnections(factories[0] ?? offlineFactory());
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
  }
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
      const provider = PRISMA_PROVIDER[source.adapterFactory.provider] ?? source.adapterFactory.provider;
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
    if (adapter.adapterName === '@prisma/adapter-pg') readPgCharAsText(adapter);
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
 * The engine's introspection queries return PostgreSQL's one-byte `"char"` columns (pg_class.relkind,
 * pg_constraint.contype, ...). `@prisma/adapter-pg` 7.10.0 has no column type for OID 18 and fails every such query
 * ("Column type 'char' could not be deserialized from the database"); pglite-prisma-adapter maps it. pg hands these
 * values over as strings anyway, so the engine's connection (only it: its own adapter instance, never the shared
 * pool) reports them as `text` (OID 25).
 */
function readPgCharAsText(adapter: SqlDriverAdapter): void {
  type PgResult = { fields?: { dataTypeID: number }[] };
  type Queryable = { query: (...args: unknown[]) => Promise<PgResult> };
  // @prisma/adapter-pg keeps its pg client in a field its type does not declare
  const holder = adapter as unknown as { client?: Queryable };
  const client = holder.client;
  if (!client || typeof client.query !== 'function') return;
  const query = async (...args: unknown[]) => {
    const result = await client.query(...args);
    for (const field of result?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
  holder.client = new Proxy(client, {
    get(target, prop) {
      if (prop === 'query') return query;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
