import { useState } from 'preact/hooks';
import { FlightLogChoicesDocument, ImportFlightLogsDocument } from '../../generated/graphql';
import { ApiError, gql, useQuery } from '../api';
import { useCanWrite } from '../app';
import { parseLogsCsv, REQUIRED_COLUMNS, templateColumns } from '../csv';
import { download, ErrorBox, Loading, PageTitle, ReadOnlyNote, TableWrap } from '../ui';

const BATCH = 50;

/** A message of the CLI's (`the header row has no pilot column`) as a sentence on the page. */
const sentence = (m: string) => `${m.charAt(0).toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? '' : '.'}`;

interface Outcome {
  done: number;
  total: number;
  imported: number;
  rejected: { line: number; error: string }[];
  ignoredColumns: string[];
  finished: boolean;
}

/**
 * CSV import through the GraphQL batch mutation, 50 rows a request: progress as it goes, and each rejected row with
 * its line and the API's message. Rows are independent (a rejected row does not stop the others), as in the API.
 */
export function FlightLogImportPage() {
  const choices = useQuery(FlightLogChoicesDocument, {});
  const canWrite = useCanWrite();
  const [file, setFile] = useState<File | null>(null);
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const aircraft = choices.data?.aircraftList.data ?? [];
  const running = !!outcome && !outcome.finished;

  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setOutcome(null);
    let parsed;
    try {
      const text = file ? await file.text() : pasted;
      if (!text.trim()) throw new Error('Choose a CSV file or paste its contents.');
      parsed = parseLogsCsv(text, aircraft);
    } catch (err) {
      // a file refused whole (not CSV, or its header: a column named twice, a required one missing), in the words
      // of `fleetops import-logs`
      setError(new ApiError(sentence((err as Error).message), 'CSV'));
      return;
    }
    // a row refused as it was read (a figure with more than 6 decimal places) is not sent: its error is listed as
    // the API's row errors are
    const toSend = parsed.rows.flatMap((row) => (row.input ? [{ line: row.line, input: row.input }] : []));
    const refused = parsed.rows.flatMap((row) => (row.error !== undefined ? [{ line: row.line, error: row.error }] : []));
    const state: Outcome = { done: refused.length, total: parsed.rows.length, imported: 0, rejected: refused, ignoredColumns: parsed.ignoredColumns, finished: false };
    const byLine = () => [...state.rejected].sort((a, b) => a.line - b.line);
    setOutcome({ ...state, rejected: byLine() });
    for (let i = 0; i < toSend.length; i += BATCH) {
      const batch = toSend.slice(i, i + BATCH);
      try {
        const r = await gql(ImportFlightLogsDocument, { items: batch.map((row) => row.input) });
        state.imported += r.createFlightLogs.results.length;
        for (const x of r.createFlightLogs.errors) state.rejected.push({ line: batch[x.index].line, error: x.error });
      } catch (err) {
        // the whole request failed (rate limit, read-only key): its rows are reported, the rest are not sent
        for (const row of batch) state.rejected.push({ line: row.line, error: (err as ApiError).message });
        setError(err as ApiError);
        state.done += batch.length;
        break;
      }
      state.done += batch.length;
      setOutcome({ ...state, rejected: byLine() });
    }
    setOutcome({ ...state, rejected: byLine(), finished: true });
  };

  const template = () => download('flight-logs-template.csv', `${templateColumns(aircraft).join(',')}\n`);

  if (!canWrite) {
    return (
      <>
        <PageTitle title="Import flight logs">Import flight logs</PageTitle>
        <ReadOnlyNote />
      </>
    );
  }
  return (
    <>
      <PageTitle title="Import flight logs">Import flight logs</PageTitle>
      <p>
        A CSV file with a header row: <code>{REQUIRED_COLUMNS.join(', ')}</code> are required, <code>pax</code>, <code>copilot</code>, <code>copilotType</code>,{' '}
        <code>flightNumber</code> and <code>notes</code> optional, and one column per tracking key of the aircraft (<code>hobbs</code>, <code>landings</code>, …). Times are ISO 8601
        (UTC unless they carry an offset). A CSV exported from this console or the API imports as it is. Each row is checked by the same rules as any flight log.
      </p>
      <p>
        <button type="button" class="secondary" onClick={template} disabled={!choices.data}>
          Download a template
        </button>
      </p>
      {!choices.data ? (
        choices.error ? <ErrorBox error={choices.error} /> : <Loading />
      ) : (
        <form class="stacked" onSubmit={run} noValidate>
          <div class="field">
            <label for="csv-file">CSV file</label>
            <input id="csv-file" type="file" accept=".csv,text/csv" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
          </div>
          <div class="field">
            <label for="csv-text">Or paste the CSV</label>
            <textarea id="csv-text" rows={6} spellcheck={false} value={pasted} onInput={(e) => setPasted((e.target as HTMLTextAreaElement).value)} />
          </div>
          <ErrorBox error={error} title="Import stopped." />
          <p class="actions">
            <button type="submit" disabled={running}>
              {running ? 'Importing…' : 'Import'}
            </button>
          </p>
        </form>
      )}
      {outcome ? (
        <section aria-labelledby="h-progress">
          <h2 id="h-progress">Progress</h2>
          <label for="import-progress" class="visually-hidden">
            Rows sent
          </label>
          <progress id="import-progress" max={outcome.total || 1} value={outcome.done} />
          <p role="status" id="import-status">
            {outcome.finished ? 'Finished: ' : `${outcome.done} of ${outcome.total} rows sent: `}
            {outcome.imported} imported, {outcome.rejected.length} rejected{outcome.finished ? ` of ${outcome.total} rows.` : '.'}
            {outcome.ignoredColumns.length ? ` Ignored columns: ${outcome.ignoredColumns.join(', ')}.` : ''}
          </p>
          {outcome.rejected.length ? (
            <TableWrap label="Rejected rows">
              <table class="rejected">
                <caption>Rejected rows</caption>
                <thead>
                  <tr>
                    <th scope="col" class="num">
                      Line
                    </th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {outcome.rejected.map((r) => (
                    <tr key={r.line}>
                      <td class="num">{r.line}</td>
                      <td>{r.error}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : null}
          {outcome.finished && outcome.imported ? (
            <p>
              <a href="/console/flight-logs">See the flight logs</a>
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
