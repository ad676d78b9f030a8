import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is a single-process database: two processes must never open one data directory.
 * The process that opens it holds `fleetops.lock` (its pid); a lock whose process is gone is stale and taken over.
 */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by another fleetops process (pid ${pid}); ` +
        `stop that process, or point DATABASE_URL at PostgreSQL to run several processes`,
    );
  }
}

/** The private socket through which other commands run inside the server that holds the embedded database. */
export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'fleetops.sock');

export const lockPath = (dataDir: string) => path.join(dataDir, 'fleetops.lock');

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the data directory, or null when it is free (or the lock is stale). */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath(dataDir), 'utf8'), 10);
    return alive(pid) && pid !== process.pid ? pid : null;
  } catch {
    return null;
  }
}

/** A file-system error on DATA_DIR, said as the variable's (the operator sets it): the system's words kept after it. */
function dataDirError(dataDir: string, e: unknown): unknown {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.syscall === 'string' && typeof err.message === 'string') err.message = `DATA_DIR ${dataDir} cannot be used: ${err.message}`;
  return e;
}

export function acquireDataDirLock(dataDir: string): () => void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    throw dataDirError(dataDir, e);
  }
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw dataDirError(dataDir, e);
      const holder = lockHolder(dataDir);
      if (holder !== null) throw new DataDirBusyError(dataDir, holder);
      fs.rmSync(file, { force: true }); // stale lock of a process that is gone
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}
