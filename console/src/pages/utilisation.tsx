import { useState } from 'preact/hooks';
import { UtilisationAircraftDocument, UtilisationDocument } from '../../generated/graphql';
import { useQuery } from '../api';
import { useApp } from '../app';
import { addMonths, currentMonth, fromZonedLocal, monthLabel, monthsBetween } from '../format';
import { trackingMap, type TrackingMap } from '../tracking';
import { ErrorBox, Loading, PageTitle } from '../ui';
import { BarChart, type Series } from './bar-chart';

const AUTO = '';
const HOURS = /hobbs|hour|tacho|flight.?time|airframe/i;
const LANDINGS = /landing/i;

/**
 * Which tracking item measures hours (or landings) on an aircraft: the one chosen, when the aircraft has it, else
 * the first number item whose key or name says so. The API does not say what an item measures (console/NEEDS.md).
 */
function itemFor(meta: TrackingMap, chosen: string, pattern: RegExp): string | undefined {
  const numbers = Object.entries(meta).filter(([, m]) => m.type === 'number');
  if (chosen !== AUTO) return numbers.some(([k]) => k === chosen) ? chosen : undefined;
  return numbers.find(([k, m]) => pattern.test(k) || pattern.test(m.displayText))?.[0];
}

/**
 * Hours and landings per month per aircraft from the aggregation API, in the console's time zone, for any period
 * of whole months: one request with a metric per tracking item involved, grouped by aircraft and month.
 */
export function UtilisationPage() {
  const { timeZone } = useApp();
  const now = currentMonth(timeZone);
  const [draft, setDraft] = useState({ from: addMonths(now, -11), to: now, hours: AUTO, landings: AUTO });
  const [applied, setApplied] = useState(draft);
  const list = useQuery(UtilisationAircraftDocument, {});
  const aircraft = list.data?.aircraftList.data ?? [];
  const plan = aircraft.map((a) => {
    const meta = trackingMap(a.maintenanceTrackingItems);
    return { a, meta, hours: itemFor(meta, applied.hours, HOURS), landings: itemFor(meta, applied.landings, LANDINGS) };
  });
  const fields = [...new Set(plan.flatMap((p) => [p.hours, p.landings]).filter((k): k is string => !!k))];
  const valid = /^\d{4}-\d{2}$/.test(applied.from) && /^\d{4}-\d{2}$/.test(applied.to) && applied.from <= applied.to;
  const start = valid ? fromZonedLocal(`${applied.from}-01T00:00`, timeZone) : '';
  const end = valid ? new Date(Date.parse(fromZonedLocal(`${addMonths(applied.to, 1)}-01T00:00`, timeZone)) - 1).toISOString() : '';
  const q = useQuery(
    UtilisationDocument,
    {
      input: {
        collection: 'flightLogs',
        metrics: fields.map((field) => ({ field, operation: 'sum' })),
        groupBy: 'aircraftId',
        dateRange: { field: 'timeDate', start, end },
        dateGroup: 'month',
        timezone: timeZone,
      },
    },
    { skip: !list.data || !fields.length || !valid },
  );
  const months = valid ? monthsBetween(applied.from, applied.to) : [];
  const value = (field: string | undefined, uid: string, month: string): number => {
    if (!field) return 0;
    const set = q.data?.aggregate.metrics?.find((m) => m.field === field);
    return set?.results.find((r) => r.group === uid && r.period === month)?.value ?? 0;
  };
  const seriesOf = (which: 'hours' | 'landings'): Series[] =>
    plan.filter((p) => p[which]).map((p) => ({ label: `${p.a.registration} (${p.meta[p[which]!].displayText})`, values: months.map((m) => value(p[which], p.a.uid, m)) }));
  const numberKeys = [...new Set(aircraft.flatMap((a) => Object.entries(trackingMap(a.maintenanceTrackingItems)).filter(([, m]) => m.type === 'number').map(([k]) => k)))];
  const set = (k: keyof typeof draft) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });
  const xTitle = `Month (${timeZone})`;
  return (
    <>
      <PageTitle title="Utilisation">Utilisation</PageTitle>
      <form
        class="filters"
        aria-label="Period and measures"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(draft);
        }}
      >
        <div class="field">
          <label for="u-from">From month</label>
          <input id="u-from" type="month" value={draft.from} max={draft.to} onChange={set('from')} />
        </div>
        <div class="field">
          <label for="u-to">To month</label>
          <input id="u-to" type="month" value={draft.to} min={draft.from} onChange={set('to')} />
        </div>
        {(['hours', 'landings'] as const).map((which) => (
          <div class="field" key={which}>
            <label for={`u-${which}`}>{which === 'hours' ? 'Hours' : 'Landings'} from</label>
            <select id={`u-${which}`} onChange={set(which)}>
              <option value={AUTO} selected={draft[which] === AUTO}>
                Each aircraft’s {which} item
              </option>
              {numberKeys.map((k) => (
                <option key={k} value={k} selected={draft[which] === k}>
                  {k}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div class="field buttons">
          <button type="submit">Show</button>
        </div>
      </form>
      {!valid ? (
        <p class="error-box" role="alert">
          Choose a From month on or before the To month.
        </p>
      ) : null}
      <ErrorBox error={list.error ?? q.error} />
      {list.data && !fields.length ? <p>No aircraft has a number tracking item to chart.</p> : null}
      {!q.data ? (
        list.error || q.error || !valid || (list.data && !fields.length) ? null : <Loading />
      ) : (
        <>
          <p class="muted" role="status">
            {monthLabel(applied.from)} to {monthLabel(applied.to)}, months in {q.data.aggregate.params.timezone}; {q.data.aggregate.totalCount} flight logs.
          </p>
          <BarChart id="hours" title="Hours flown" unit="hours" xTitle={xTitle} categories={months.map(monthLabel)} series={seriesOf('hours')} precision={1} />
          <BarChart id="landings" title="Landings" unit="landings" xTitle={xTitle} categories={months.map(monthLabel)} series={seriesOf('landings')} precision={0} />
        </>
      )}
    </>
  );
}
