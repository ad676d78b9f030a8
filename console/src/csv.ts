import { parse } from 'csv-parse/browser/esm/sync';
import { stringify } from 'csv-stringify/browser/esm/sync';
import type { FlightLogRowFragment } from '../generated/graphql.js';
import { OUTPUT_FIELDS, SERVER_CONTROLLED } from '../../src/modules/flight-logs/fields.js';
import { csvTextWritten } from '../../src/lib/csv-text.js';
import { readLogsCsv, rowAircraftId, rowFaultMessage, rowInput } from '../../src/modules/flight-logs/csv-rules.js';
import { trackingMap } from './tracking.js';
// (relative imports name their .js file here: tests under test/ import this module, type-checked as Node modules)

/**
 * Flight logs as CSV, in the layout of the API's own CSV export and of `fleetops import-logs` (docs/import.md): the
 * output fields, then one column per tracking key (maintenance keys first). An export imports again unchanged:
 * uid, companyId, createdAt and updatedAt are ignored on import. A file is read by the server's own rules
 * (src/modules/flight-logs/csv-rules.ts, browser-safe), so the console and `fleetops import-logs` read it alike.
 */
export { CsvError, REQUIRED_COLUMNS } from '../../src/modules/flight-logs/csv-rules.js';

type AircraftMeta = { uid: string; maintenanceTrackingItems: unknown; logTrackingItems: unknown };

/** The export's columns for these aircraft: output fields, then maintenance keys, then log keys. */
export function exportColumns(aircraft: AircraftMeta[]): string[] {
  const keys = new Set<string>();
  for (const a of aircraft) for (const k of Object.keys(trackingMap(a.maintenanceTrackingItems))) keys.add(k);
  for (const a of aircraft) for (const k of Object.keys(trackingMap(a.logTrackingItems))) keys.add(k);
  return [...OUTPUT_FIELDS, ...keys];
}

/** The columns of a template to fill in: the export's, without the server-controlled ones. */
export function templateColumns(aircraft: AircraftMeta[]): string[] {
  const ignored = new Set<string>(SERVER_CONTROLLED);
  return exportColumns(aircraft).filter((c) => !ignored.has(c));
}

/** A text cell a spreadsheet would read as a formula gets a leading quote, as the API's export does (src/lib/csv-text.ts). */
const text = csvTextWritten;

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

/** A row of the file: the input to send, or the error that keeps it from being sent (a figure with too many decimals). */
export type CsvRow = { line: number; input: Record<string, unknown>; error?: undefined } | { line: number; error: string; input?: undefined };

export interface ParsedCsv {
  rows: CsvRow[];
  ignoredColumns: string[];
}

/**
 * Reads a CSV of flight logs into API inputs by the rules of `fleetops import-logs` (src/modules/flight-logs/csv-rules.ts):
 * a refused file throws a CsvError with the CLI's words; a row whose cell is refused (more than 6 decimal places)
 * carries that error, in the words of the API's row errors, and is not to be sent; any other row's input is the
 * flat form the CLI sends (tracking values as top-level keys), for the API to judge.
 */
export function parseLogsCsv(textIn: string, aircraft: AircraftMeta[]): ParsedCsv {
  const { header, rows, ignoredColumns } = readLogsCsv(textIn, parse);
  const byUid = new Map(aircraft.map((a) => [a.uid, a]));
  return {
    ignoredColumns,
    rows: rows.map((row) => {
      const cells = rowInput(row, header, byUid.get(rowAircraftId(row)) ?? null);
      return 'fault' in cells ? { line: row.line, error: rowFaultMessage(cells.fault) } : { line: row.line, input: cells.input };
    }),
  };
}
