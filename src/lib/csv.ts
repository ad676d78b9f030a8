import { stringify } from 'csv-stringify/sync';
import { Response } from '../http/response.js';
import { csvTextWritten as csvText } from './csv-text.js';
/**
 * CSV cells for exports. A text cell that a spreadsheet would read as a formula gets a leading single quote, which an
 * import takes off again (./csv-text.ts); numbers stay numbers.
 */
export { csvText };

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

/**
 * What a CSV export answers (docs/api-notes.md "CSV exports"): the page the JSON answer to the same query would hold
 * (`limit`, default the list's own, and `cursor` as the JSON list takes them), and a `Link: <...>; rel="next"` to the
 * next page when there is one. An export is a list like any other: no request returns an unbounded one
 * (gaps.md §17); a client exports everything by following `Link` (each page the same query, the same columns).
 */
export async function csvPages<T>(
  query: URLSearchParams,
  path: string,
  list: (paging: { limit?: string; cursor?: string }) => Promise<{ data: T[]; nextCursor: string | null }>,
): Promise<{ pages: AsyncIterable<T[]>; link: string | null }> {
  const limit = query.get('limit') ?? undefined;
  const cursor = query.get('cursor') ?? undefined;
  const page = await list({ ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) });
  let link: string | null = null;
  if (page.nextCursor) {
    const next = new URLSearchParams(query);
    next.set('cursor', page.nextCursor);
    link = `<${path}?${next.toString()}>; rel="next"`;
  }
  return { pages: (async function* () { yield page.data; })(), link };
}

/** A CSV download of `pages` (csvResponse), with the next page's `Link` when csvPages gave one. */
export function csvPagedResponse<T>(columns: string[], paged: { pages: AsyncIterable<T[]>; link: string | null }, row: (item: T) => string[], filename: string): Response {
  const res = csvResponse(columns, paged.pages, row, filename);
  if (paged.link) res.headers.set('link', paged.link);
  return res;
}
