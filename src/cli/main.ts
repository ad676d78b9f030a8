import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { ApiKeyService } from '../auth/keys.js';
import { keyDropWatcher } from '../auth/key-drops.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { DataDirBusyError, lockHolder } from '../db/data-dir-lock.js';
import { applyMigrations } from '../db/migrate.js';
import { AppError, NotFoundError } from '../errors.js';
import { parseJson } from '../lib/json-numbers.js';
import { notUtf8Line, notUtf8Message, withoutBom } from '../lib/utf8-text.js';
import { adminSocketPath } from '../db/data-dir-lock.js';
import type { RelayedCommand } from '../server.js';
import { registerBackupCommands } from './backup.js';
import { terminalBar } from './progress.js';
import pkg from '../../package.json' with { type: 'json' };
// The commands' heavy modules (the services, the GraphQL schema and HTTP app) are imported when a command needs
// them, so `fleetops keys list` does not load the server, and `serve` opens its database while they load.

/**
 * The `fleetops` command (docs/contract/gaps.md §1). Commands that need the database open it themselves; on the embedded
 * database, while a server holds it, they run inside that server over its admin socket instead.
 */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Output passed on as it is (what a server's admin socket answered). */
  writeOut(chunk: string): void;
  writeErr(chunk: string): void;
  /** The directory relative file names are read from (the caller's, also when run inside the server). */
  cwd: string;
  /** A progress bar is drawn only on a terminal. */
  tty: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
  /** Set when the command runs inside the server that holds the embedded database (its admin socket). */
  server?: boolean;
}

export interface CliOptions {
  /** The environment read for configuration; default process.env, plus a .env file in the working directory. */
  env?: NodeJS.ProcessEnv;
  /** The working directory: relative file names and a relative DATA_DIR resolve against it. Default process.cwd(). */
  cwd?: string;
  /** Where output goes as it is written; without them it is collected and returned. */
  stdout?: (chunk: string) => void;
  stderr?: (chunk: string) => void;
  /** Draw a progress bar on stderr (import-logs). Default false. */
  tty?: boolean;
  /** The width of the terminal the bar is drawn on (default 80). */
  columns?: number;
  /** Run database commands on this open database instead of opening one (`serve` then refuses). */
  database?: Database;
}

export interface CliResult {
  code: number;
  /** What was written to stdout / stderr; empty when a writer was given in the options. */
  stdout: string;
  stderr: string;
}

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

type DbRunner = <T>(fn: (db: Database) => Promise<T>, opts?: { migrate?: boolean }) => Promise<T>;

/**
 * Maintenance alerts after a command's writes, as every write operation of the API raises them (docs/notifications.md):
 * the writes are committed, so an evaluation that fails is told on stderr, not turned into the command's failure
 * (the servers' sweep catches it within ALERT_SWEEP_MS).
 */
async function raiseAlerts(io: Io, db: Database, companyIds: string[]): Promise<void> {
  const { evaluateCompany } = await import('../modules/alerts/monitor.js');
  for (const id of companyIds) {
    try {
      await evaluateCompany(db, id);
    } catch (e) {
      io.err(`fleetops: maintenance alerts of ${id} not evaluated (${(e as Error).message}); the server's sweep will`);
    }
  }
}

/** Builds the command tree. `withDb` decides where database work runs (own connection, or the server's). */
function program(io: Io, withDb: DbRunner, config: () => Config, serve: () => Promise<void>): Command {
  const cmd = new Command('fleetops')
    .description('Fleet Ops: operations back end for aircraft and vehicle fleets')
    .version(pkg.version, '-V, --version', 'print the version of fleetops')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });

  cmd
    .command('serve')
    .description('start the HTTP server (REST /api/v1, GraphQL /graphql, docs /docs); applies pending migrations')
    .action(serve);

  cmd
    .command('migrate')
    .description('apply pending database migrations')
    .action(() =>
      withDb(async (db) => {
        const applied = await applyMigrations(db.sql);
        io.out(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date');
      }, { migrate: false }),
    );

  cmd
    .command('import')
    .description('create or update companies, users, aircraft, vehicles and API keys from a JSON file (one transaction)')
    .argument('<file>', 'import file (see docs/import.md)')
    .action(async (file: string) => {
      let raw: unknown;
      try {
        const text = withoutBom(fs.readFileSync(path.resolve(io.cwd, file), 'utf8'));
        const badLine = notUtf8Line(text);
        if (badLine !== null) throw new Error(notUtf8Message(badLine));
        raw = parseJson(text); // numbers as written: an inexact one is refused at its path
      } catch (e) {
        io.err(`fleetops import: cannot read ${file}: ${(e as Error).message}`);
        throw new Exit(1);
      }
      await withDb(async (db) => {
        const { formatSummary, importData } = await import('../modules/companies/import.js');
        const summaries = await importData(db, raw);
        for (const s of summaries) io.out(formatSummary(s));
        // initial values and tracking items move what schedule items are judged against
        await raiseAlerts(io, db, summaries.map((s) => s.id));
      });
    });

  cmd
    .command('import-logs')
    .description('load flight logs from a CSV file through the same rules as the API (totals kept); reports rejected rows by line')
    .requiredOption('--company <id>', 'company id')
    .argument('<file>', 'CSV file with a header row: timeDate, pilot, aircraftId, ... and tracking keys (docs/import.md)')
    .action(async (file: string, o: { company: string }) => {
      let text: string;
      try {
        text = fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
      } catch (e) {
        io.err(`fleetops import-logs: cannot read ${file}: ${(e as Error).message}`);
        throw new Exit(1);
      }
      const code = await withDb(async (db) => {
        const company = await db.prisma.company.findUnique({ where: { id: o.company } });
        if (!company) throw new NotFoundError('company', o.company);
        const { createServices } = await import('../context.js');
        const { scopedPrisma } = await import('../db/scoped.js');
        const { CsvError, importFlightLogsCsv } = await import('../modules/flight-logs/csv.js');
        const services = createServices(scopedPrisma(db.prisma, o.company));
        const bar = terminalBar(io, 'importing {bar} {value}/{total} rows');
        let started = false;
        let shown = 0;
        let result;
        try {
          result = await importFlightLogsCsv(services.flightLogs, text, {
            aircraft: (uid) => services.aircraft.find(uid),
            onProgress: (done, total) => {
              if (!bar) return;
              if (!started) bar.start(total, 0);
              started = true;
              bar.update(done);
            },
            // each rejected row is reported as it is rejected (the first 100), above the bar
            onReject: (r) => {
              if (shown++ >= 100) return;
              if (started) io.writeErr('\r\x1b[2K');
              io.err(`line ${r.line}: ${r.error}`);
            },
          });
        } catch (e) {
          if (e instanceof CsvError) {
            io.err(`fleetops import-logs: ${e.message}`);
            return 1;
          }
          throw e;
        } finally {
          bar?.stop();
        }
        if (result.imported) await raiseAlerts(io, db, [o.company]);
        if (result.ignoredColumns.length) io.out(`ignored server-controlled columns: ${result.ignoredColumns.join(', ')}`);
        io.out(`imported ${result.imported} flight log(s) into ${o.company}; rejected ${result.rejected.length}`);
        if (result.rejected.length > 100) io.err(`... and ${result.rejected.length - 100} more rejected rows`);
        return result.rejected.length ? 1 : 0;
      });
      if (code) throw new Exit(code);
    });

  const keys = cmd.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key; its plaintext is printed once, alone, as the last line')
    .requiredOption('--company <id>', 'company id')
    .option('--name <label>', 'a label for the key', 'default')
    .option('--user <uid>', 'the user that acts through this key (default: the company owner)')
    .option('--scope <scope>', 'read (no writes on any channel), read_write, or admin (also manages aircraft, users and API keys over the API)', 'read_write')
    .action((o: { company: string; name: string; user?: string; scope: string }) =>
      withDb(async (db) => {
        const { key, info } = await new ApiKeyService(db.prisma).create({ companyId: o.company, name: o.name, userId: o.user, scope: o.scope });
        io.out(`created ${info.scope} API key ${info.id} (${info.prefix}...) "${info.name}" for company ${info.companyId}; it is shown only once:`);
        io.out(key);
      }),
    );
  keys
    .command('list')
    .description('list the API keys of a company')
    .requiredOption('--company <id>', 'company id')
    .action((o: { company: string }) =>
      withDb(async (db) => {
        const list = await new ApiKeyService(db.prisma).list(o.company);
        if (!list.length) return io.out(`company ${o.company} has no API keys`);
        io.out(['id', 'prefix', 'name', 'created', 'last used', 'revoked', 'scope'].join('\t'));
        for (const k of list) {
          io.out(
            [k.id, k.prefix + '...', k.name, k.createdAt.toISOString(), k.lastUsedAt?.toISOString() ?? '-', k.revokedAt?.toISOString() ?? '-', k.scope].join('\t'),
          );
        }
      }),
    );
  keys
    .command('revoke')
    .description('revoke an API key (it answers 401 from then on)')
    .argument('<keyId>', 'the key id from `keys list`')
    .action((keyId: string) =>
      withDb(async (db) => {
        const k = await new ApiKeyService(db.prisma, { watchDrops: keyDropWatcher(db) }).revoke(keyId);
        io.out(`revoked API key ${k.id} (${k.prefix}...) of company ${k.companyId}`);
      }),
    );

  cmd
    .command('demo')
    .description('load (or start over) a demo company: a year of flight logs, components, a maintenance schedule, form completions; print its API key')
    .action(() =>
      withDb(async (db) => {
        const { loadDemo, demoRequests } = await import('../modules/companies/demo.js');
        const demo = await loadDemo(db);
        const c = config();
        io.out(
          `demo company "${demo.companyId}" loaded: 2 aircraft with ${demo.flightLogs} flight logs over the last year (and a glider in storage), ` +
            `${demo.components} components, ${demo.scheduleItems} schedule items (one overdue, some due soon), ${demo.formCompletions} form completions, ${demo.vehicles} vehicles, 3 users.`,
        );
        io.out(`Try it (docs at http://${c.host}:${c.port}/docs, GraphiQL at http://${c.host}:${c.port}/graphql):`);
        for (const r of demoRequests(`http://${c.host}:${c.port}`, demo.key)) {
          io.out(`  # ${r.what}`);
          io.out(`  ${r.curl}`);
        }
        io.out('admin API key (reads, writes and manages the company; shown only once):');
        io.out(demo.key);
      }),
    );
  registerBackupCommands(cmd, io, withDb, config);
  return cmd;
}

/** Runs argv against a database the caller already holds (the server's admin socket), its output relayed as written. */
export function runWithDatabase(database: Database, argv: string[], opts: RelayedCommand): Promise<CliResult> {
  return runCli(argv, { database, cwd: opts.cwd, tty: opts.tty, columns: opts.columns, stdout: opts.stdout, stderr: opts.stderr });
}

/** Error codes of a database that cannot be reached or used: the host, the port, the database name, the password. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', '3D000', '28P01', '28000', '57P03']);

/**
 * The message of an error that says the database cannot be reached or used (a wrong host, port, database name or
 * password in DATABASE_URL; PostgreSQL not running): the operator's to fix, said without a stack trace. Null otherwise.
 */
function connectionFailure(e: unknown): string | null {
  const seen = new Set<unknown>();
  const visit = (x: unknown): string | null => {
    if (!x || typeof x !== 'object' || seen.has(x)) return null;
    seen.add(x);
    const { code, message, cause, errors } = x as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (CONNECTION_CODES.has(String(code))) return String(message || code);
    for (const inner of [cause, ...(Array.isArray(errors) ? errors : [])]) {
      const found = visit(inner);
      if (found) return found;
    }
    return null;
  };
  return visit(e);
}

async function execute(io: Io, argv: string[], withDb: DbRunner, config: () => Config, serve: () => Promise<void>): Promise<number> {
  try {
    await program(io, withDb, config, serve).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof Exit) return e.code;
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof AppError) {
      io.err(`fleetops: ${e.message}`);
      for (const fe of e.errors ?? []) if (fe.path || fe.message !== e.message) io.err(`  at ${fe.path || '/'}: ${fe.message}`);
      return 1;
    }
    if (e instanceof DataDirBusyError || e instanceof ConfigError) {
      io.err(`fleetops: ${e.message}`);
      return 1;
    }
    // the listen address is taken or not allowed (PORT, HOST), or a file the command needs cannot be read or
    // written (DATA_DIR, a backup file): the operator's to fix, said without a stack trace
    const sys = e as { code?: unknown; syscall?: unknown; message?: string };
    if (sys?.syscall === 'listen') {
      io.err(`fleetops: cannot listen: ${sys.message} (set PORT or HOST)`);
      return 1;
    }
    if (typeof sys?.syscall === 'string' && ['EACCES', 'EPERM', 'ENOENT', 'EROFS', 'ENOSPC', 'EISDIR', 'ENOTDIR', 'EEXIST'].includes(String(sys.code))) {
      io.err(`fleetops: ${sys.message}`);
      return 1;
    }
    const unreachable = connectionFailure(e);
    if (unreachable) {
      io.err(`fleetops: cannot use the database DATABASE_URL names: ${unreachable}`);
      return 1;
    }
    io.err(`fleetops: ${(e as Error)?.stack ?? String(e)}`);
    return 1;
  }
}

/**
 * Runs the command inside the server that holds the embedded database (src/server.ts, RelayedCommand): its output
 * is written here as the server sends it. Resolves with the exit code; rejects when the socket does not answer
 * (then nothing was run). An answer cut before its exit code (the server was killed or crashed while the command
 * ran) is exit 1 with a warning that the command may have done part of its work.
 */
function forward(socket: string, argv: string[], io: Io): Promise<number> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let code: number | undefined;
    let done = false;
    const cut = () => {
      if (done) return;
      done = true;
      if (code !== undefined) return resolve(code);
      io.err(
        `fleetops: the server holding the embedded database stopped before \`fleetops ${argv[0] ?? ''}\` finished: it may have done part of its work; look at what it writes before running it again`,
      );
      resolve(1);
    };
    const req = http.request({ socketPath: socket, path: '/cli', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      answered = true;
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        pending += c;
        let nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (!line) continue;
          const event = JSON.parse(line) as { out?: string; err?: string; code?: number };
          if (event.out !== undefined) io.writeOut(event.out);
          if (event.err !== undefined) io.writeErr(event.err);
          if (event.code !== undefined) code = event.code;
        }
      });
      res.on('end', cut);
      res.on('error', cut);
    });
    req.on('error', (e) => (answered ? cut() : reject(e)));
    req.end(JSON.stringify({ argv, cwd: io.cwd, tty: io.tty, columns: io.columns }));
  });
}

/**
 * Runs `fleetops ARGV` and resolves with its exit code; never exits the process (bin/fleetops.js sets the exit
 * code). Tests call it in-process with their own env, cwd and an optional open database.
 */
export async function runCli(argv: string[], opts: CliOptions = {}): Promise<CliResult> {
  const result: CliResult = { code: 0, stdout: '', stderr: '' };
  const writeOut = opts.stdout ?? ((c: string) => void (result.stdout += c));
  const writeErr = opts.stderr ?? ((c: string) => void (result.stderr += c));
  const cwd = opts.cwd ?? process.cwd();
  const io: Io = {
    out: (l) => writeOut(l + '\n'),
    err: (l) => writeErr(l + '\n'),
    writeOut,
    writeErr,
    cwd,
    tty: opts.tty ?? false,
    columns: opts.columns,
  };
  let config: Config | undefined;
  const getConfig = () => {
    if (!config) {
      if (opts.env) {
        // a given environment is all there is (no .env file); a relative DATA_DIR is relative to `cwd`
        const env = { ...opts.env, DATA_DIR: path.resolve(cwd, opts.env.DATA_DIR || './data') };
        config = loadConfig(env, { dotenv: false });
      } else {
        config = loadConfig(); // the process's environment, and a .env file in its working directory
      }
    }
    return config;
  };

  if (opts.database) {
    const database = opts.database;
    io.server = true;
    result.code = await execute(io, argv, (fn) => fn(database), getConfig, async () => {
      io.err('fleetops serve: a server is already running on this data directory');
      throw new Exit(1);
    });
    return result;
  }

  // the configuration is read when a command needs it (a ConfigError is then its exit 1): `--help` needs none
  const withDb: DbRunner = async (fn, o) => {
    const c = getConfig();
    if (!c.databaseUrl) {
      const holder = lockHolder(c.dataDir);
      if (holder !== null) {
        const socket = adminSocketPath(c.dataDir);
        if (!fs.existsSync(socket)) throw new DataDirBusyError(c.dataDir, holder);
        // the running server holds the embedded database: run this command inside it
        const code = await forward(socket, argv, io).catch(() => {
          throw new DataDirBusyError(c.dataDir, holder);
        });
        throw new Exit(code);
      }
    }
    const db = await openDatabase({ databaseUrl: c.databaseUrl, dataDir: c.dataDir, migrate: o?.migrate, statementCache: c.statementCache });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  const serve = async () => {
    const c = getConfig();
    const { startServer } = await import('../server.js');
    const server = await startServer(c, runWithDatabase);
    io.out(`fleetops listening on ${server.url} (${server.database.kind === 'pglite' ? `embedded database in ${c.dataDir}` : 'PostgreSQL'})`);
    io.out(`REST ${server.url}/api/v1 · GraphQL ${server.url}/graphql · docs ${server.url}/docs`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        server.close().then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  };
  result.code = await execute(io, argv, withDb, getConfig, serve);
  return result;
}
