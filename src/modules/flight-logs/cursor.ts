/** Opaque keyset cursor for the flight-log list: the last row's (timeDate, uid), base64url-encoded JSON. */
export interface Cursor {
  t: Date;
  u: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.t.toISOString(), c.u]), 'utf8').toString('base64url');
}

export function decodeCursor(s: string): Cursor | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string') return null;
    const t = new Date(v[0]);
    return Number.isNaN(t.getTime()) ? null : { t, u: v[1] };
  } catch {
    return null;
  }
}
