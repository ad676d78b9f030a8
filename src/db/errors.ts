import { AppError, BadRequestError, ConflictError } from '../errors.js';

/**
 * Database errors a request can cause, as the 4xx they are (issue: no input may answer 500): a value the column
 * cannot hold (PostgreSQL class 22: out of range, too long, invalid text; Prisma P2000/P2006/P2007/P2020/P2033)
 * is a 400; a uniqueness or reference conflict (23505/23503, P2002/P2003) is a 409. Anything else is not mapped.
 */
const BAD_VALUE = new Set(['P2000', 'P2006', 'P2007', 'P2019', 'P2020', 'P2023', 'P2033']);

/** `o[key]` of any value (undefined for a value without properties). */
const field = (o: unknown, key: string): unknown => (o && typeof o === 'object' ? Reflect.get(o, key) : undefined);

function sqlState(e: unknown): string | undefined {
  const seen = new Set<unknown>();
  const stack = [e];
  while (stack.length) {
    const x = stack.pop();
    if (!x || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    for (const key of ['code', 'originalCode', 'sqlState']) {
      const v = field(x, key);
      if (typeof v === 'string' && /^[0-9A-Z]{5}$/.test(v) && !v.startsWith('P')) return v;
    }
    stack.push(field(x, 'cause'), field(x, 'meta'), field(field(x, 'meta'), 'driverAdapterError'), field(x, 'originalError'));
  }
  const m = /\b(22[0-9A-Z]{3}|23505|23503)\b/.exec(String(field(e, 'message') ?? ''));
  return m?.[1];
}

export function databaseError(e: unknown): AppError | null {
  if (e instanceof AppError) return e;
  const err = e as { code?: string; message?: string } | null;
  if (!err || typeof err !== 'object') return null;
  const state = sqlState(err);
  if (err.code === 'P2002' || state === '23505') return new ConflictError('the record conflicts with an existing one (a value that must be unique is taken)');
  if (err.code === 'P2003' || state === '23503') return new ConflictError('the record refers to, or is referred to by, another record');
  if ((err.code && BAD_VALUE.has(err.code)) || state?.startsWith('22')) {
    return new BadRequestError('a value is out of range or not valid for its field');
  }
  return null;
}
