import { parse } from 'csv-parse/sync';
import type { Aircraft } from '../../generated/prisma/client.js';
import { AppError, ValidationError, oneLineMessage } from '../../errors.js';
import { checkItemText } from '../../lib/batch.js';
import { readLogsCsv, rowAircraftId, rowFaultMessage, rowInput } from './csv-rules.js';
import { CreateFlightLogCheck, fromFlatBody, type FlightLogService } from './service.js';

export { CsvError } from './csv-rules.js';

/**
 * Flight logs from CSV (`fleetops import-logs`): one row per log, a header row naming the columns: core fields
 * (timeDate, pilot, ..., pax, notes) and tracking keys. The columns of an export (`Accept: text/csv`) are
 * accepted as they are: uid, companyId, createdAt and updatedAt are ignored. The file is read by ./csv-rules.ts,
 * as the console reads it; every row goes through FlightLogService.create, so the rules and the totals are exactly
 * those of the API.
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

export async function importFlightLogsCsv(
  service: FlightLogService,
  text: string,
  opts: CsvImportOptions,
): Promise<CsvImportResult> {
  const { header, rows, ignoredColumns } = readLogsCsv(text, parse); // a CsvError refuses the file whole
  const result: CsvImportResult = { imported: 0, rejected: [], ignoredColumns };
  const aircraftCache = new Map<string, Aircraft | null>();
  for (const [i, row] of rows.entries()) {
    const id = rowAircraftId(row);
    if (!aircraftCache.has(id)) aircraftCache.set(id, id ? await opts.aircraft(id) : null);
    try {
      const cells = rowInput(row, header, aircraftCache.get(id) ?? null);
      if ('fault' in cells) throw new ValidationError(rowFaultMessage(cells.fault), [cells.fault]);
      checkItemText(cells.input); // a row is an item of a batch: NUL is its own error
      // the same check as the API's (the flat form: tracking columns are top-level keys)
      await service.create(CreateFlightLogCheck.parse(fromFlatBody(cells.input)));
      result.imported++;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const rejected = { line: row.line, error: oneLineMessage(e) };
      result.rejected.push(rejected);
      opts.onReject?.(rejected);
    }
    opts.onProgress?.(i + 1, rows.length);
    // a turn of the event loop between rows: a server running the import (relayed from `fleetops import-logs`)
    // keeps answering requests, and its output reaches the caller as it is written
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return result;
}
