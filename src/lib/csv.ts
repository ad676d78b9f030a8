import { stringify } from 'csv-stringify/sync';
import { Response } from '../http/response.js';
/**
 * CSV cells for exports. A text cell that a spreadsheet would read as a formula (starting with =, +, -, @, tab or
 * carriage return) is prefixed with a single quote (OWASP CSV injection advice); numbers stay numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvText(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/** A JSON value as one cell: arrays of plain values joined with "; ", other objects as JSON. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return csvText(v);
  if (Array.isArray(v) && v.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x))) {
    return csvText(v.map((x) => (x === null ? '' : String(x))).join('; '));
  }
  return csvText(JSON.stringify(v));
}

/**
 * A CSV download streamed a page at a time as the client reads (the whole export is never held in memory): the
 * header row, then each page's rows (cells already made with csvCell), then the end.
 */
export function csvResponse<T>(columns: string[], pages: AsyncIterable<T[]>, row: (item: T) => string[], filename: string): Response {
  const iterator = pages[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([columns])));
        return;
      }
      const next = await iterator.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(stringify(next.value.map(row))));
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` },
  });
}
