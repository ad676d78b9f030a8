import { decimalPlaces } from '../../lib/decimal.js';
import { PROTO_KEY_MESSAGE } from '../../lib/input-messages.js';
import { inexactMessage, isExactNumberText } from '../../lib/json-numbers.js';
import { csvTextRead } from '../../lib/csv-text.js';
import { notUtf8Line, notUtf8Message } from '../../lib/utf8-text.js';
import { TRACKING_VALUE_PLACES, placesMessage } from '../tracking/limits.js';
import { CORE_FIELDS, SERVER_CONTROLLED } from './fields.js';

/**
 * Flight logs from CSV (docs/import.md): how a file becomes the JSON inputs of flight logs. The one reading of a file
 * for `fleetops import-logs` (./csv.ts, which sends each input through FlightLogService.create) and for the console's
 * import (console/src/csv.ts, which sends them through the `createFlightLogs` batch): the header's checks, the line
 * a row starts on, a cell as the JSON value a client would send, so that the two cannot read one file apart.
 *
 * Browser-safe: no `node:` import, no Prisma, no zod and nothing of src/errors.ts (it loads zod, and with it 450 kB
 * of the console's bundle); its imports (src/lib/decimal.ts, src/lib/input-messages.ts, src/lib/json-numbers.ts,
 * src/lib/utf8-text.ts, src/lib/csv-text.ts, ../tracking/limits.ts, ./fields.ts) are the same. The
 * CSV parser is passed in: csv-parse's synchronous `parse`, whose node and browser builds are one code.
 */

/** The columns a file with rows must name. */
export const REQUIRED_COLUMNS = ['timeDate', 'pilot', 'aircraftId', 'aircraftRegistration', 'startLocation', 'endLocation'] as const;

export { PROTO_KEY_MESSAGE };

/** A file refused whole, before any row is imported (its message is said after `fleetops import-logs: `). */
export class CsvError extends Error {}

/** A cell refused before its row is sent: at its JSON Pointer (`/hobbs`), with the API's words. */
export interface CellFault {
  path: string;
  message: string;
}

/** The options given to the parser (csv-parse's sync `parse`). */
export interface CsvParseOptions {
  columns: (names: string[]) => string[];
  bom: true;
  skip_empty_lines: true;
  info: true;
  raw: true;
  relax_column_count: false;
}
export type CsvParse = (input: string, options: CsvParseOptions) => unknown;

export interface CsvRow {
  /** The line of the file the row starts on (the header is line 1; a quoted cell may hold line breaks). */
  line: number;
  /** The row's cells by column, as written. */
  cells: Record<string, string>;
}

export interface CsvRows {
  header: string[];
  rows: CsvRow[];
  /** The server-controlled columns of the header (an export's uid, companyId, createdAt, updatedAt): ignored. */
  ignoredColumns: string[];
}

const IGNORED = new Set<string>(SERVER_CONTROLLED);
const CORE = new Set<string>(CORE_FIELDS);

/** A hint for a header read as one column holding semicolons: a file separated by `;`, as some spreadsheets save CSV. */
const semicolons = (header: string[]) =>
  header.length === 1 && header[0].includes(';') ? ' (the header row is one column holding semicolons: the file looks separated by semicolons; save it separated by commas)' : '';

/** The rows of a CSV of flight logs, or a CsvError when the file is refused whole (not CSV, or its header). */
export function readLogsCsv(text: string, parse: CsvParse): CsvRows {
  let header: string[] = [];
  let records: { record: Record<string, string>; raw: string; info: { lines: number } }[];
  // line breaks as LF (CRLF and CR alike, a quoted cell's too): csv-parse counts a CRLF inside a quoted cell as two
  // lines, so every later row of a Windows file was reported a line late
  const lf = text.replace(/\r\n?/g, '\n');
  const badLine = notUtf8Line(lf);
  if (badLine !== null) throw new CsvError(notUtf8Message(badLine));
  try {
    records = parse(lf, {
      // a column named twice would be read as one of its cells (the last): which of two hobbs figures is the
      // flight's, the file does not say, so it is refused whole
      columns: (read: string[]) => {
        // spaces around a name are not part of it (` pilot` after `timeDate,`), as around a cell's value
        const names = read.map((n) => n.trim());
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
    }) as typeof records;
  } catch (e) {
    if (e instanceof CsvError) throw e;
    throw new CsvError(`not a valid CSV file: ${(e as Error).message}${semicolons(header)}`);
  }
  // a column is a key of each row's input: the one name no object keeps as a key is refused as any input refuses it
  if (header.includes('__proto__')) throw new CsvError(`the header row names a column __proto__: ${PROTO_KEY_MESSAGE}`);
  for (const required of REQUIRED_COLUMNS) {
    if (records.length && !header.includes(required)) throw new CsvError(`the header row has no ${required} column${semicolons(header)}`);
  }
  return {
    header,
    ignoredColumns: header.filter((c) => IGNORED.has(c)),
    rows: records.map(({ record, raw, info }) => {
      // the line the row starts on: `lines` counts to the row's end, and a quoted cell may hold line breaks; `raw`
      // begins with the empty lines skipped before the row, which are not the row's
      const own = raw.replace(/^\n+/, '');
      const breaks = (own.match(/\n/g)?.length ?? 0) - (own.endsWith('\n') ? 1 : 0);
      return { line: info.lines - breaks, cells: record };
    }),
  };
}

/** An aircraft's declared tracking items, as the API gives them (maps of key → { type, ... }). */
export interface AircraftItems {
  maintenanceTrackingItems?: unknown;
  logTrackingItems?: unknown;
}

/** The type an aircraft declares for a tracking key (an own key of its maps, maintenance first), if any. */
function declaredType(aircraft: AircraftItems | null, key: string): unknown {
  for (const map of [aircraft?.maintenanceTrackingItems, aircraft?.logTrackingItems]) {
    const item = map && typeof map === 'object' && Object.hasOwn(map, key) ? (map as Record<string, unknown>)[key] : undefined;
    if (item !== undefined && item !== null) return typeof item === 'object' ? (item as { type?: unknown }).type : undefined;
  }
  return undefined;
}

/** Decimal notation, as a spreadsheet writes a figure: digits, an optional sign, fraction and exponent (`1.5E-3`). */
const PLAIN_DECIMAL = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A number written as text (a CSV cell, a figure typed in the console) as the number a JSON body would carry, taken
 * as written or refused, by the rule every channel applies to a JSON number (src/lib/json-numbers.ts):
 * - text that is not decimal notation (`0x10`, `0b11`, `12 h`, `Infinity`) stays text, for the API to refuse as it
 *   refuses a string (JavaScript's `Number('0x10')` is 16);
 * - decimal notation that no double holds exactly is a fault at `path` in the API's words (inexactMessage): more
 *   digits than a double keeps (`12345678901234567` would be sent as ...568, `1.00000000000000001` as 1), and a
 *   number past a double's range (`1e999`, which no JSON body can carry: JSON.stringify writes it as null) or one
 *   that is not zero but would become zero (`1e-400`). A JSON body holding the same digits gets the same 400;
 * - anything else is the number.
 */
export function numberFromText(text: string, path: string): { value: number | string } | { fault: CellFault } {
  if (!PLAIN_DECIMAL.test(text)) return { value: text };
  if (!isExactNumberText(text.replace(/^\+/, ''))) return { fault: { path, message: inexactMessage(text) } };
  return { value: Number(text) };
}

/**
 * A tracking figure written as text: numberFromText, checked first on its digits as written for the tracking
 * figures' places, so more than 6 decimal places (trailing zeros aside) is a fault at `path` (default `/<what>`) in
 * the API's words for a figure (`1.00000000000000001` is refused for its places, not read as 1).
 */
export function figureFromText(text: string, what: string, path = `/${what}`): { value: number | string } | { fault: CellFault } {
  if (PLAIN_DECIMAL.test(text) && decimalPlaces(text) > TRACKING_VALUE_PLACES) return { fault: { path, message: placesMessage(what) } };
  return numberFromText(text, path);
}

/**
 * A row's cells as the flat input the API takes (tracking values as top-level keys, docs/contract/gaps.md §4):
 * cells are trimmed; an empty cell is absent, but an empty pax is null, and so is pax when the header has no pax
 * column (a file without it says no more about pax than an empty cell does); pax is a number (numberFromText: taken as
 * written, whatever its places, or refused) and the cells of the aircraft's number items are tracking figures
 * (figureFromText); server-controlled columns are left out. Anything else is left for the API to judge, so its
 * messages are the ones shown. The first refused cell is the row's fault. A cell no JSON number carries exactly (more
 * digits than a double holds, or past its range, `1e999`) is refused here, pax and tracking figures alike, in the
 * words the API gives the same digits in a JSON body.
 */
export function rowInput(row: CsvRow, header: readonly string[], aircraft: AircraftItems | null): { input: Record<string, unknown> } | { fault: CellFault } {
  const input: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(row.cells)) {
    const cell = raw.trim();
    if (IGNORED.has(column)) continue;
    if (column === 'pax') {
      if (cell === '') input.pax = null;
      else {
        const pax = numberFromText(cell, '/pax');
        if ('fault' in pax) return pax;
        input.pax = pax.value;
      }
      continue;
    }
    if (cell === '') continue;
    // text as an export wrote it: the quote it put before a formula-looking text is taken off (src/lib/csv-text.ts)
    if (CORE.has(column) || declaredType(aircraft, column) !== 'number') input[column] = csvTextRead(cell);
    else {
      const figure = figureFromText(cell, column);
      if ('fault' in figure) return figure;
      input[column] = figure.value;
    }
  }
  if (!header.includes('pax')) input.pax = null;
  return { input };
}

/** A refused cell as its row's error, in the words of the API's 400 for one field (`invalid flight log: /hobbs: ...`). */
export const rowFaultMessage = (fault: CellFault) => `invalid flight log: ${fault.path}: ${fault.message}`;

/** The aircraft a row names (its aircraftId cell, trimmed; '' when none). */
export const rowAircraftId = (row: CsvRow) => row.cells.aircraftId?.trim() ?? '';
