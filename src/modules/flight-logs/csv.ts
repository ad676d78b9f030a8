import { PROTO_KEY_MESSAGE } from '../../lib/input-faults.js';
import { parse } from 'csv-parse/sync';
import type { Aircraft } from '../../generated/prisma/client.js';
import { AppError, oneLineMessage } from '../../errors.js';
import { checkItemText } from '../../lib/batch.js';
import { asTrackingMap, declaredItem } from '../tracking/schema.js';
import { figureFromText } from '../tracking/value.js';
import { CORE_FIELDS, CreateFlightLogCheck, SERVER_CONTROLLED, fromFlatBody, type FlightLogService } from './service.js';

/**
 * Flight logs from CSV (`fleetops import-logs`): one row per log, a header row naming the columns: core fields
 * (timeDate, pilot, ..., pax, notes) and tracking keys. The columns of an export (`Accept: text/csv`) are
 * accepted as they are: uid, companyId, createdAt and updatedAt are ignored. Every row goes through
 * FlightLogService.create, so the rules and the totals are exactly those of the API.
 */
export interface CsvImportResult {
  imported: number;
  rejected: { line: number; error: string }[];
  ignoredColumns: string[];
}

export interface CsvImportOptions {
  onProgress?: (done: number, total: number) => void;
  /** Told of each rejected row as it is rejected (the result lists them all too). */
  onReject?: (row: { line: number; error: string }) => void;
  /** Looks up an aircraft of the company (to type tracking cells as the aircraft declares them). */
  aircraft: (uid: string) => Promise<Aircraft | null>;
}

const IGNORED = new Set<string>(SERVER_CONTROLLED);

/** A CSV cell as the JSON value the API would take: empty is absent, number items and pax become numbers. */
function cellsToInput(row: Record<string, string>, aircraft: Aircraft | null): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const core = new Set<string>(CORE_FIELDS);
  const maint = asTrackingMap(aircraft?.maintenanceTrackingItems);
  const log = asTrackingMap(aircraft?.logTrackingItems);
  for (const [column, raw] of Object.entries(row)) {
    const cell = raw.trim();
    if (IGNORED.has(column)) continue;
    if (column === 'pax') {
      input.pax = cell === '' ? null : figureFromText(cell, 'pax', 'flight log');
      continue;
    }
    if (cell === '') continue;
    if (core.has(column)) input[column] = cell;
    else {
      const item = declaredItem(maint, column) ?? declaredItem(log, column);
      input[column] = item?.type === 'number' ? figureFromText(cell, column, 'flight log') : cell;
    }
  }
  return input;
}

export async function importFlightLogsCsv(
  service: FlightLogService,
  text: string,
  opts: CsvImportOptions,
): Promise<CsvImportResult> {
  let records: { record: Record<string, string>; raw: string; info: { lines: number } }[];
  let header: string[] = [];
  try {
    records = parse(text, {
      // a column named twice would be read as one of its cells (the last): which of two hobbs figures is the
      // flight's, the file does not say, so it is refused whole
      columns: (names: string[]) => {
        const twice = names.find((n, i) => names.indexOf(n) !== i);
        if (twice !== undefined) throw new CsvError(`the header row names the column ${twice} twice`);
        header = names;
        return names;
      },
      bom: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      relax_column_count: false,
    });
  } catch (e) {
    if (e instanceof CsvError) throw e;
    throw new CsvError(`not a valid CSV file: ${(e as Error).message}`);
  }
  // a column is a key of each row's input: the one name no object keeps as a key is refused as any input refuses it
  if (header.includes('__proto__')) throw new CsvError(`the header row names a column __proto__: ${PROTO_KEY_MESSAGE}`);
  for (const required of ['timeDate', 'pilot', 'aircraftId', 'aircraftRegistration', 'startLocation', 'endLocation']) {
    if (records.length && !header.includes(required)) throw new CsvError(`the header row has no ${required} column`);
  }
  const result: CsvImportResult = {
    imported: 0,
    rejected: [],
    ignoredColumns: header.filter((c) => IGNORED.has(c)),
  };
  const aircraftCache = new Map<string, Aircraft | null>();
  for (const [i, { record, raw, info }] of records.entries()) {
    const id = record.aircraftId?.trim() ?? '';
    if (!aircraftCache.has(id)) aircraftCache.set(id, id ? await opts.aircraft(id) : null);
    try {
      const input = cellsToInput(record, aircraftCache.get(id) ?? null);
      // a file without a pax column says no more about it than an empty cell does: null (docs/import.md)
      if (!header.includes('pax')) input.pax = null;
      checkItemText(input); // a row is an item of a batch: NUL is its own error
      // the same check as the API's (the flat form: tracking columns are top-level keys)
      await service.create(CreateFlightLogCheck.parse(fromFlatBody(input)));
      result.imported++;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // the line the row starts on: a quoted cell may hold line breaks, and `lines` counts to the row's end
      const breaks = (raw.match(/\n/g)?.length ?? 0) - (raw.endsWith('\n') ? 1 : 0);
      const row = { line: info.lines - breaks, error: oneLineMessage(e) };
      result.rejected.push(row);
      opts.onReject?.(row);
    }
    opts.onProgress?.(i + 1, records.length);
    // a turn of the event loop between rows: a server running the import (relayed from `fleetops import-logs`)
    // keeps answering requests, and its output reaches the caller as it is written
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return result;
}

export class CsvError extends Error {}
