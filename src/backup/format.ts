import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { errorKind } from '../errors.js';

/**
 * The backup file (docs/backup.md): JSON Lines, gzip-compressed when the file name ends in `.gz` (a reader knows
 * gzip by its magic bytes). Every line is one JSON value:
 *
 *   ["fleetops-backup", 1, {header}]                      the format and its version first, then what is inside
 *   ["table", "FlightLog", {"columns": [...], "rows": N}] a table's rows follow, one JSON object per line,
 *   {"companyId": "...", "uid": "...", ...}               exactly as PostgreSQL's row_to_json wrote them
 *   ["end", "FlightLog", {"rows": N, "sha256": "..."}]    the count again and the SHA-256 of the row lines
 *   ["end-of-backup", {"tables": T, "rows": R}]           the last line: a file without it is incomplete
 *
 * Control lines are arrays and rows are objects, so a reader tells them apart by the first character. Rows are never
 * parsed and re-serialised by JavaScript: numbers (numeric, jsonb) keep every digit PostgreSQL wrote.
 */
export const FORMAT = 'fleetops-backup';
export const FORMAT_VERSION = 1;

export interface TableHeader {
  name: string;
  /** Columns as the source database had them, in its order. */
  columns: string[];
  rows: number;
}

export interface BackupHeader {
  /** When the snapshot was taken (ISO 8601, UTC). */
  createdAt: string;
  /** The kind of store it was taken from. */
  source: { database: 'pglite' | 'postgres'; serverVersion: string };
  /** The source's applied migrations, in order: a restore brings the target to exactly these before loading. */
  migrations: string[];
  /** The companies inside; `all` when the backup was of the whole store. */
  scope: 'all' | 'company';
  companies: string[];
  /** Tables in restore order (a foreign key's target before the table that refers to it). */
  tables: TableHeader[];
  /** Figures computed from the snapshot that a restore computes again and compares (docs/backup.md "Verification"). */
  check: BackupCheck;
}

export interface BackupCheck {
  /** Current value of every component counter, by company, component uid and counter key. */
  componentCounters: Record<string, Record<string, Record<string, number>>>;
}

/** A backup that cannot be read or restored: a clear message, exit 1, nothing loaded. */
export class BackupError extends errorKind(422, 'backup_refused', 'Backup refused') {}

/** Line-writer of a backup file; the rows of each table are hashed as they pass. */
export class BackupWriter {
  private hash: ReturnType<typeof rowsHash> | null = null;
  private bytes = 0;
  private constructor(
    private readonly out: Writable,
    private readonly fileStream: fs.WriteStream,
    private readonly done: Promise<void>,
    readonly file: string,
    private readonly partial: string,
  ) {}

  /**
   * Opens `file` for writing: the backup goes to `file.partial` (mode 0600: it holds key hashes and integration
   * secrets) and becomes `file` only once complete, so a failed backup never leaves a file that looks whole. A
   * `file.partial` an interrupted run left is removed first and the file created anew ('wx'): the mode applies only to
   * a file the open creates, and an old one may be readable by anyone.
   */
  static open(file: string): BackupWriter {
    const partial = `${file}.partial`;
    fs.rmSync(partial, { force: true });
    const fileStream = fs.createWriteStream(partial, { mode: 0o600, flags: 'wx' });
    let out: Writable = fileStream;
    if (file.endsWith('.gz')) {
      const gz = zlib.createGzip({ level: 6 });
      gz.pipe(fileStream);
      out = gz;
    }
    // settles once the file is closed: complete (finish), or given up (destroyed by abort, or failed)
    const done = new Promise<void>((resolve, reject) => {
      let failure: unknown;
      fileStream.on('error', (e) => (failure = e));
      out.on('error', (e) => (failure = e));
      fileStream.on('close', () => (failure ? reject(failure) : resolve()));
    });
    done.catch(() => {});
    return new BackupWriter(out, fileStream, done, file, partial);
  }

  private async write(text: string): Promise<void> {
    this.bytes += Buffer.byteLength(text);
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  control(value: unknown[]): Promise<void> {
    return this.write(JSON.stringify(value) + '\n');
  }

  beginTable(t: TableHeader): Promise<void> {
    this.hash = rowsHash();
    return this.control(['table', t.name, { columns: t.columns, rows: t.rows }]);
  }

  /** Row lines as PostgreSQL wrote them (`row_to_json(...)::text`), one per line. */
  async rows(lines: string[]): Promise<void> {
    if (!lines.length) return;
    this.hash!.update(lines);
    await this.write(lines.join('\n') + '\n');
  }

  endTable(name: string, rows: number): Promise<void> {
    const sha256 = this.hash!.digest();
    this.hash = null;
    return this.control(['end', name, { rows, sha256 }]);
  }

  /** Ends the file and moves it into place; the size written (uncompressed). */
  async finish(): Promise<number> {
    this.out.end();
    await this.done;
    fs.renameSync(this.partial, this.file);
    return this.bytes;
  }

  /** Gives up: the partial file is removed. */
  async abort(): Promise<void> {
    this.out.destroy();
    this.fileStream.destroy();
    await this.done.catch(() => {});
    fs.rmSync(this.partial, { force: true });
  }
}

/** The SHA-256 a table's end line carries, over row lines exactly as written. */
export function rowsHash(): { update(lines: string[]): void; digest(): string } {
  const h = createHash('sha256');
  return {
    update(lines) {
      if (lines.length) h.update(lines.join('\n') + '\n');
    },
    digest: () => h.digest('hex'),
  };
}

const MASK = (1n << 256n) - 1n;

/**
 * A digest of a set of row lines that does not depend on their order: their number and the sum of their SHA-256s
 * modulo 2^256. A restore compares the rows it read from the file with the rows it reads back from the store, which
 * may come in another order.
 */
export function rowsSetDigest(): { update(lines: string[]): void; digest(): string } {
  let sum = 0n;
  let n = 0;
  return {
    update(lines) {
      for (const l of lines) {
        sum = (sum + BigInt(`0x${createHash('sha256').update(l).digest('hex')}`)) & MASK;
        n++;
      }
    },
    digest: () => `${n}:${sum.toString(16)}`,
  };
}

export type BackupLine = { kind: 'row'; text: string; lineNo: number } | { kind: 'control'; value: unknown[]; lineNo: number };

/** Reads a backup file line by line (gzip or not), starting with its header, which is checked first. */
export async function openBackup(file: string): Promise<{ header: BackupHeader; lines: AsyncIterableIterator<BackupLine>; close(): void }> {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new BackupError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const magic = Buffer.alloc(2);
  const n = fs.readSync(fd, magic, 0, 2, 0);
  const raw = fs.createReadStream('', { fd, start: 0 });
  let input: Readable = raw;
  if (n === 2 && magic[0] === 0x1f && magic[1] === 0x8b) {
    const gunzip = zlib.createGunzip();
    const pass = new PassThrough();
    raw.pipe(gunzip).pipe(pass);
    gunzip.on('error', (e) => pass.destroy(new BackupError(`${path.basename(file)} is not a complete gzip file: ${e.message}`)));
    input = pass;
  }
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  const it = rl[Symbol.asyncIterator]();
  let lineNo = 0;
  const first = await it.next().catch((e) => {
    throw e instanceof BackupError ? e : new BackupError(`cannot read ${file}: ${(e as Error).message}`);
  });
  lineNo++;
  const header = checkHeader(first.done ? '' : first.value, file);
  async function* lines(): AsyncIterableIterator<BackupLine> {
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      lineNo++;
      const text = r.value;
      if (text.startsWith('{')) yield { kind: 'row', text, lineNo };
      else {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new BackupError(`${path.basename(file)} line ${lineNo} is not JSON: the file is damaged`);
        }
        if (!Array.isArray(value)) throw new BackupError(`${path.basename(file)} line ${lineNo} is not a row or a section line: the file is damaged`);
        yield { kind: 'control', value, lineNo };
      }
    }
  }
  return {
    header,
    lines: lines(),
    close: () => {
      rl.close();
      raw.destroy();
    },
  };
}

function checkHeader(line: string, file: string): BackupHeader {
  const name = path.basename(file);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = null;
  }
  if (!Array.isArray(value) || value[0] !== FORMAT) {
    throw new BackupError(`${name} is not a fleetops backup (its first line is not ["${FORMAT}", version, ...])`);
  }
  if (value[1] !== FORMAT_VERSION) {
    throw new BackupError(
      `${name} is a fleetops backup of format version ${JSON.stringify(value[1])}; this fleetops reads format version ${FORMAT_VERSION} only. ` +
        `Restore it with the fleetops release that wrote it (docs/backup.md lists the versions). Nothing was restored.`,
    );
  }
  const problem = headerProblem(value[2]);
  if (problem) throw new BackupError(`${name}: the header of this backup is damaged (${problem}). Nothing was restored.`);
  return value[2] as BackupHeader;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNames = (x: unknown): x is string[] => Array.isArray(x) && x.every((e) => typeof e === 'string' && e !== '');
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** What is wrong with a header's shape (BackupHeader, field by field), or null when it has the shape restore reads. */
function headerProblem(h: unknown): string | null {
  if (!isObject(h)) return 'it has no header object';
  if (typeof h.createdAt !== 'string') return 'createdAt is missing or not text';
  if (!isObject(h.source)) return 'source is missing or not an object';
  if (h.source.database !== 'pglite' && h.source.database !== 'postgres') return 'source.database is neither "pglite" nor "postgres"';
  if (typeof h.source.serverVersion !== 'string') return 'source.serverVersion is missing or not text';
  if (!isNames(h.migrations)) return 'migrations is missing or not a list of names';
  if (h.scope !== 'all' && h.scope !== 'company') return 'scope is neither "all" nor "company"';
  if (!isNames(h.companies)) return 'companies is missing or not a list of names';
  if (!Array.isArray(h.tables)) return 'tables is missing or not a list';
  const seen = new Set<string>();
  for (const [i, t] of h.tables.entries()) {
    if (!isObject(t)) return `tables[${i}] is not an object`;
    if (typeof t.name !== 'string' || !t.name) return `tables[${i}].name is missing or not a name`;
    if (seen.has(t.name)) return `table ${t.name} is listed twice`;
    seen.add(t.name);
    if (!isNames(t.columns) || !t.columns.length) return `tables[${i}].columns is missing or not a list of names`;
    if (new Set(t.columns).size !== t.columns.length) return `tables[${i}].columns names a column twice`;
    if (!isCount(t.rows)) return `tables[${i}].rows is missing or not a count`;
  }
  if (!isObject(h.check) || !isObject(h.check.componentCounters)) return 'check.componentCounters is missing or not an object';
  for (const [company, byUid] of Object.entries(h.check.componentCounters)) {
    if (!isObject(byUid)) return `check.componentCounters.${company} is not an object`;
    for (const [uid, counters] of Object.entries(byUid)) {
      if (!isObject(counters)) return `check.componentCounters.${company}.${uid} is not an object`;
      for (const [k, v] of Object.entries(counters)) {
        if (typeof v !== 'number' || !Number.isFinite(v)) return `check.componentCounters.${company}.${uid}.${k} is not a number`;
      }
    }
  }
  return null;
}
