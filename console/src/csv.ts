import { parse } from 'csv-parse/browser/esm/sync';
import { stringify } from 'csv-stringify/browser/esm/sync';
import type { FlightLogRowFragment } from '../generated/graphql';
import { trackingMap } from './tracking';

/**
 * Flight logs as CSV, in the layout of the API's own CSV export and of `fleetops import-logs` (docs/import.md): the
 * output fields, then one column per tracking key (maintenance keys first). An export imports again unchanged:
 * uid, companyId, createdAt and updatedAt are ignored on import.
 */
export const CORE_FIELDS = ['timeDate', 'pilot', 'copilot', 'copilotType', 'aircraftId', 'aircraftRegistration', 'flightNumber', 'startLocation', 'endLocation', 'pax', 'notes'] as const;
export const OUTPUT_FIELDS = ['uid', ...CORE_FIELDS, 'companyId', 'createdAt', 'updatedAt'] as const;
const SERVER_CONTROLLED = new Set(['uid', 'companyId', 'createdAt', 'updatedAt']);
export const REQUIRED_COLUMNS = ['timeDate', 'pilot', 'aircraftId', 'aircraftRegistration', 'startLocation', 'endLocation'];

type AircraftMeta = { uid: string; maintenanceTrackingItems: unknown; logTrackingItems: unknown };

/** The export's columns for these aircraft: output fields, then maintenance keys, then log keys. */
export function exportColumns(aircraft: AircraftMeta[]): string[] {
  const keys = new Set<string>();
  for (const a of aircraft) for (const k of Object.keys(trackingMap(a.maintenanceTrackingItems))) keys.add(k);
  for (const a of aircraft) for (const k of Object.keys(trackingMap(a.logTrackingItems))) keys.add(k);
  return [...OUTPUT_FIELDS, ...keys];
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** A text cell a spreadsheet would read as a formula gets a leading quote (as the API's export does). */
const text = (s: string) => (FORMULA_START.test(s) ? `'${s}` : s);

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return text(typeof v === 'string' ? v : JSON.stringify(v));
}

export function logsToCsv(columns: string[], logs: FlightLogRowFragment[]): string {
  const rows = logs.map((l) => {
    const flat = { ...(l.trackingItems ?? {}), ...l } as Record<string, unknown>;
    return columns.map((c) => cell(flat[c]));
  });
  return stringify([columns, ...rows]);
}

export interface CsvRow {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  input: Record<string, unknown>;
}

export interface ParsedCsv {
  rows: CsvRow[];
  ignoredColumns: string[];
}

/**
 * Reads a CSV of flight logs into API inputs: empty cells are absent (pax: null), pax and the aircraft's number
 * items become numbers; anything else is left for the API to judge, so its messages are the ones shown.
 */
export function parseLogsCsv(textIn: string, aircraft: AircraftMeta[]): ParsedCsv {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(textIn, { columns: true, bom: true, skip_empty_lines: true, info: true, relax_column_count: false });
  } catch (e) {
    throw new Error(`This is not a valid CSV file: ${(e as Error).message}`);
  }
  const header = records.length ? Object.keys(records[0].record) : [];
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (records.length && missing.length) throw new Error(`The header row has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}.`);
  const byUid = new Map(aircraft.map((a) => [a.uid, { ...trackingMap(a.logTrackingItems), ...trackingMap(a.maintenanceTrackingItems) }]));
  const core = new Set<string>(CORE_FIELDS);
  const rows = records.map(({ record, info }) => {
    const meta = byUid.get(record.aircraftId?.trim() ?? '') ?? {};
    const input: Record<string, unknown> = {};
    const tracking: Record<string, unknown> = {};
    for (const [column, raw] of Object.entries(record)) {
      const c = raw.trim();
      if (SERVER_CONTROLLED.has(column)) continue;
      if (column === 'pax') input.pax = c === '' ? null : toNumber(c);
      else if (c === '') continue;
      else if (core.has(column)) input[column] = c;
      else tracking[column] = meta[column]?.type === 'number' ? toNumber(c) : c;
    }
    if (Object.keys(tracking).length) input.trackingItems = tracking;
    return { line: info.lines, input };
  });
  return { rows, ignoredColumns: header.filter((c) => SERVER_CONTROLLED.has(c)) };
}

function toNumber(c: string): number | string {
  const n = Number(c);
  return Number.isFinite(n) ? n : c;
}
