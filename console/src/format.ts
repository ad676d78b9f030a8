/** Numbers, dates and time zones as the console shows them. */

/** A total or a tracking value: exact as the API gave it, at least `precision` decimals (Hobbs 1,200.5). */
export function num(v: number | null | undefined, precision?: number | null): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  return new Intl.NumberFormat('en', { minimumFractionDigits: Math.min(precision ?? 0, 10), maximumFractionDigits: 10 }).format(v);
}

/** Parts of an instant in a time zone. */
function parts(date: Date, timeZone: string): Record<string, number> {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DDTHH:MM` of an instant in a time zone (the value of a datetime-local input). */
export function toZonedLocal(iso: string | Date, timeZone: string): string {
  const p = parts(new Date(iso), timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** An instant shown in a time zone: `2026-03-01 09:30`. */
export function dateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  return toZonedLocal(iso, timeZone).replace('T', ' ');
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const p = parts(new Date(ms), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant (ISO, UTC) at which a wall-clock time `YYYY-MM-DDTHH:MM` occurs in a time zone. */
export function fromZonedLocal(local: string, timeZone: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(local);
  if (!m) return local;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0));
  let t = wall - offsetAt(wall, timeZone);
  t = wall - offsetAt(t, timeZone); // once more: the offset may differ on the other side of a change
  return new Date(t).toISOString();
}

/**
 * Whether a wall-clock time `YYYY-MM-DDTHH:MM` occurs in a time zone: false in the hour skipped when clocks go forward
 * (02:30 on 27 September 2026 in Auckland), which fromZonedLocal would move by the jump unseen.
 */
export function wallTimeExists(local: string, timeZone: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})/.exec(local);
  return !m || toZonedLocal(fromZonedLocal(local, timeZone), timeZone) === m[1];
}

/** A calendar date the API carries as midnight UTC (calendarDateDue): the date as written, never shifted. */
export function calendarDate(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '—';
}

/** Today's month, `YYYY-MM`, in a time zone. */
export function currentMonth(timeZone: string, now = new Date()): string {
  const p = parts(now, timeZone);
  return `${p.year}-${pad(p.month)}`;
}

/** `YYYY-MM` plus n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** Every `YYYY-MM` from `from` to `to`, inclusive. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to && out.length < 1200; m = addMonths(m, 1)) out.push(m);
  return out;
}

/** `2026-03` → `Mar 2026`. */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function timeZones(): string[] {
  // browsers without Intl.supportedValuesOf (before 2022) get the short list
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes('UTC') ? all : ['UTC', ...all];
}

/** `days` as words: `3 days overdue`, `due today`, `in 5 days`. */
export function daysText(days: number | null | undefined): string {
  if (days === null || days === undefined) return '—';
  if (days < 0) return `${-days} day${days === -1 ? '' : 's'} overdue`;
  if (days === 0) return 'due today';
  return `in ${days} day${days === 1 ? '' : 's'}`;
}
