import { useEffect, useState } from 'preact/hooks';
import { FlightLogChoicesDocument, FlightLogsDocument, type FlightLogRowFragment } from '../../generated/graphql';
import { ApiError, gql, useQuery } from '../api';
import { useApp, useCanWrite, useSearch, withQuery } from '../app';
import { exportColumns, logsToCsv } from '../csv';
import { fromZonedLocal } from '../format';
import { download, ErrorBox, Loading, Options, Pager, PageTitle, usePager, filtersOf } from '../ui';
import { FlightLogTable } from './flight-log-table';

const PAGE_SIZE = 25;
const EXPORT_PAGE = 500;

/** The instant a filter date means in the time zone: the start of `from`, the last moment of `to`. */
function range(from: string, to: string, tz: string) {
  const next = (d: string) => {
    const t = new Date(`${d}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + 1);
    return t.toISOString().slice(0, 10);
  };
  return {
    startDate: from ? fromZonedLocal(`${from}T00:00`, tz) : undefined,
    endDate: to ? new Date(Date.parse(fromZonedLocal(`${next(to)}T00:00`, tz)) - 1).toISOString() : undefined,
  };
}

export function FlightLogsPage() {
  const { timeZone, navigate } = useApp();
  const canWrite = useCanWrite();
  const search = useSearch();
  const filters = {
    aircraftId: search.get('aircraftId') ?? '',
    pilotId: search.get('pilotId') ?? '',
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
  };
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const pager = usePager();
  const [draft, setDraft] = useState(filters);
  // the filters in the address (a page of them is not a change of filters)
  const applied = filtersOf(search);
  // another page of the console may link here with other filters: the form shows them (the address has no cursor: the
  // first page)
  useEffect(() => {
    setDraft(filters);
  }, [applied]);
  const set = (k: keyof typeof filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });
  const choices = useQuery(FlightLogChoicesDocument, {});
  const vars = {
    aircraftId: filters.aircraftId || undefined,
    pilotId: filters.pilotId || undefined,
    ...range(filters.from, filters.to, timeZone),
  };
  const q = useQuery(FlightLogsDocument, { ...vars, cursor: pager.cursor ?? undefined, limit: PAGE_SIZE });
  const aircraft = choices.data?.aircraftList.data ?? [];
  const users = choices.data?.users.data ?? [];

  const apply = (e: Event) => {
    e.preventDefault();
    navigate(withQuery('/console/flight-logs', draft), { replace: true });
  };

  const exportCsv = async () => {
    setExportError(null);
    const logs: FlightLogRowFragment[] = [];
    let next: string | null | undefined;
    try {
      do {
        setExporting(`Exporting: ${logs.length} logs read…`);
        const page = await gql(FlightLogsDocument, { ...vars, cursor: next ?? undefined, limit: EXPORT_PAGE });
        logs.push(...page.flightLogs.data);
        next = page.flightLogs.nextCursor;
      } while (next);
      const columns = exportColumns(filters.aircraftId ? aircraft.filter((a) => a.uid === filters.aircraftId) : aircraft);
      download('flight-logs.csv', logsToCsv(columns, logs));
      setExporting(`Exported ${logs.length} flight log${logs.length === 1 ? '' : 's'} to flight-logs.csv.`);
    } catch (e) {
      setExporting(null);
      setExportError(e as ApiError);
    }
  };

  const page = q.data?.flightLogs;
  return (
    <>
      <PageTitle title="Flight logs">Flight logs</PageTitle>
      <p class="actions">
        {canWrite ? (
          <>
            <a class="button" href={withQuery('/console/flight-logs/new', { aircraftId: filters.aircraftId })}>
              Log a flight
            </a>{' '}
            <a class="button secondary" href="/console/flight-logs/import">
              Import CSV
            </a>{' '}
          </>
        ) : null}
        <button type="button" class="secondary" onClick={exportCsv} disabled={!choices.data}>
          Export CSV
        </button>
      </p>
      <p role="status" class="export-status">
        {exporting ?? ''}
      </p>
      <ErrorBox error={exportError} title="Export failed." />
      <form class="filters" onSubmit={apply} aria-label="Filter flight logs">
        <div class="field">
          <label for="f-aircraft">Aircraft</label>
          <select id="f-aircraft" name="aircraftId" value={draft.aircraftId} onChange={set('aircraftId')}>
            <Options none="All aircraft" items={aircraft} value={(a) => a.uid} label={(a) => a.registration} />
          </select>
        </div>
        <div class="field">
          <label for="f-pilot">Pilot</label>
          <select id="f-pilot" name="pilotId" value={draft.pilotId} onChange={set('pilotId')}>
            <Options none="All pilots" items={users} value={(u) => u.uid} label={(u) => u.displayName} />
          </select>
        </div>
        <div class="field">
          <label for="f-from">From</label>
          <input id="f-from" name="from" type="date" value={draft.from} onChange={set('from')} max={draft.to || undefined} />
        </div>
        <div class="field">
          <label for="f-to">To</label>
          <input id="f-to" name="to" type="date" value={draft.to} onChange={set('to')} min={draft.from || undefined} />
        </div>
        <div class="field buttons">
          <button type="submit">Apply filters</button>
        </div>
      </form>
      <ErrorBox error={q.error} />
      {!page ? (
        q.error ? null : <Loading />
      ) : (
        <>
          <FlightLogTable logs={page.data} aircraft={aircraft} caption={`Flight logs, page ${pager.number}, newest first`} />
          <Pager label="Pages of flight logs" pager={pager} nextCursor={page.nextCursor} />
        </>
      )}
    </>
  );
}
