import { AircraftPageDocument, VehiclePageDocument, type ComponentNodeFragment, type StatusItemFragment } from '../../generated/graphql';
import { useQuery } from '../api';
import { useApp, useCanWrite, withQuery } from '../app';
import { dateTime, num } from '../format';
import { numberMap, trackingMap } from '../tracking';
import { ErrorBox, Loading, PageTitle, TableWrap } from '../ui';
import { FlightLogTable } from './flight-log-table';
import { MaintenanceTable, type AssetRef } from './maintenance-table';

/** Components as a tree under the asset: each with its part and serial numbers, state and counters. */
function ComponentTree({ components, parent }: { components: ComponentNodeFragment[]; parent: string }) {
  const children = components.filter((c) => c.parent?.uid === parent);
  if (!children.length) return null;
  return (
    <ul class="tree">
      {children.map((c) => (
        <li key={c.uid} data-component={c.uid}>
          <div class="node">
            <strong>{c.name}</strong> <span class="muted">{c.type}</span>
            <br />
            P/N {c.partNumber}, S/N {c.serialNumber}
            {c.condition ? `, ${c.condition}` : ''}
            {c.counters.length ? (
              <ul class="counters" aria-label={`Counters of ${c.name}`}>
                {c.counters.map((k) => (
                  <li key={k.key}>
                    {k.displayText}: <strong>{num(k.value, k.precision)}</strong> {k.unit}
                    {k.basis === 'sinceEvent' ? ' since event' : ''}
                    {k.sourceDecreased ? ' (source went backwards: held)' : ''}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          <ComponentTree components={components} parent={c.uid} />
        </li>
      ))}
    </ul>
  );
}

function TotalsTable({ items, totals, initial, label }: { items: unknown; totals: unknown; initial: unknown; label: string }) {
  const meta = trackingMap(items);
  const t = numberMap(totals);
  const i = numberMap(initial);
  const keys = Object.keys(meta).filter((k) => meta[k].type === 'number');
  return (
    <TableWrap label={label}>
      <table class="totals-table">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" class="num">
              Current total
            </th>
            <th scope="col" class="num">
              Initial value
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k} data-total={k}>
              <th scope="row">{meta[k].displayText}</th>
              <td class="num total">{num(t[k], meta[k].precision)}</td>
              <td class="num">{num(i[k] ?? 0, meta[k].precision)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function Schedule({ status, uid, components, name }: { status: StatusItemFragment[]; uid: string; components: ComponentNodeFragment[]; name: string }) {
  const mine = new Set([uid, ...components.map((c) => c.uid)]);
  const items = status.filter((s) => mine.has(s.relatedTo) && (s.relatedTo === uid || s.relatedToType === 'component'));
  const refs = new Map<string, AssetRef>([
    [`aircraft:${uid}`, { name }],
    [`vehicle:${uid}`, { name }],
    ...components.map((c) => [`component:${c.uid}`, { name: `${c.name} S/N ${c.serialNumber}` }] as [string, AssetRef]),
  ]);
  return <MaintenanceTable items={items} assets={refs} caption={`Maintenance schedule of ${name} and its components`} />;
}

function Completions({ rows, status, tz }: { rows: { uid: string; scheduleItemId: string; completedAt: string; trackingValue?: number | null; userDisplayName: string; notes?: string | null }[]; status: StatusItemFragment[]; tz: string }) {
  if (!rows.length) return <p>No maintenance completed yet.</p>;
  const names = new Map(status.map((s) => [s.scheduleItemUid, s.name]));
  return (
    <TableWrap label="Maintenance carried out">
      <table>
        <caption>Maintenance carried out (latest 10)</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Item</th>
            <th scope="col" class="num">
              At
            </th>
            <th scope="col">By</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.uid}>
              <td>{dateTime(r.completedAt, tz)}</td>
              <td>{names.get(r.scheduleItemId) ?? r.scheduleItemId}</td>
              <td class="num">{num(r.trackingValue)}</td>
              <td>{r.userDisplayName}</td>
              <td>{r.notes ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function AssetPage({ kind, id }: { kind: 'aircraft' | 'vehicle'; id: string }) {
  const { timeZone } = useApp();
  const canWrite = useCanWrite();
  const vars = { id, uid: id, timezone: timeZone };
  const a = useQuery(AircraftPageDocument, vars, { skip: kind !== 'aircraft' });
  const v = useQuery(VehiclePageDocument, vars, { skip: kind !== 'vehicle' });
  const q = kind === 'aircraft' ? a : v;
  const aircraft = a.data?.aircraft;
  const vehicle = v.data?.vehicle;
  const data = kind === 'aircraft' ? a.data : v.data;
  const asset = aircraft ?? vehicle;
  const name = asset?.registration ?? id;
  return (
    <>
      <PageTitle title={name}>
        {kind === 'aircraft' ? 'Aircraft' : 'Vehicle'} {name}
      </PageTitle>
      <ErrorBox error={q.error} />
      {!data || !asset ? (
        q.error ? null : <Loading />
      ) : (
        <>
          <p class="lead">
            {aircraft
              ? `${[aircraft.manufacturer, aircraft.model].filter(Boolean).join(' ')} (${aircraft.type}), ${aircraft.category}, ${aircraft.engineCount} × ${aircraft.engineType}`
              : vehicle
                ? `${vehicle.make} ${vehicle.model}${vehicle.year ? ` (${vehicle.year})` : ''}${vehicle.fuelType ? `, ${vehicle.fuelType}` : ''}`
                : ''}
            {asset.status !== 'active' ? `, ${asset.status}` : ''}
          </p>
          {aircraft ? (
            <p class="actions">
              {canWrite ? (
                <>
                  <a class="button" href={withQuery('/console/flight-logs/new', { aircraftId: aircraft.uid })}>
                    Log a flight
                  </a>{' '}
                </>
              ) : null}
              <a class="button secondary" href={withQuery('/console/flight-logs', { aircraftId: aircraft.uid })}>
                All flight logs of {aircraft.registration}
              </a>
            </p>
          ) : null}
          <section aria-labelledby="h-totals">
            <h2 id="h-totals">Totals</h2>
            <TotalsTable items={asset.maintenanceTrackingItems} totals={asset.totals} initial={asset.initialValues} label={`Totals of ${name}`} />
          </section>
          <section aria-labelledby="h-schedule">
            <h2 id="h-schedule">Maintenance schedule</h2>
            <Schedule status={data.maintenanceStatus.data} uid={asset.uid} components={data.components.data} name={name} />
          </section>
          <section aria-labelledby="h-components">
            <h2 id="h-components">Components</h2>
            {data.components.data.length ? <ComponentTree components={data.components.data} parent={asset.uid} /> : <p>No components fitted.</p>}
          </section>
          {a.data && kind === 'aircraft' ? (
            <section aria-labelledby="h-logs">
              <h2 id="h-logs">Recent flight logs</h2>
              <FlightLogTable logs={a.data.flightLogs.data} aircraft={a.data.aircraft ? [a.data.aircraft] : []} caption={`Latest flight logs of ${name}`} />
            </section>
          ) : null}
          <section aria-labelledby="h-done">
            <h2 id="h-done">Maintenance carried out</h2>
            <Completions rows={data.scheduleCompletions.data} status={data.maintenanceStatus.data} tz={timeZone} />
          </section>
        </>
      )}
    </>
  );
}
