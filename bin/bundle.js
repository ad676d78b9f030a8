// Which code `fleetops` runs: dist/fleetops.mjs (built by `npm install`, scripts/build.mjs) only while it is newer
// than every file under src/, so an edit is never shadowed by a stale bundle.
import fs from 'node:fs';
import path from 'node:path';

function newestFile(dir) {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestFile(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** The bundle's path under `root` when it exists and is newer than every source file; otherwise null. */
export function freshBundle(root) {
  const bundle = path.join(root, 'dist', 'fleetops.mjs');
  try {
    return fs.statSync(bundle).mtimeMs >= newestFile(path.join(root, 'src')) ? bundle : null;
  } catch {
    return null;
  }
}
