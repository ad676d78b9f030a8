import { FleetOverviewDocument, type FleetOverviewQuery, type StatusItemFragment } from '../../generated/graphql';
import { useQuery } from '../api';
import { useApp } from '../app';
import { daysText, num } from '../format';
import { dueSoon as thresholds, mostUrgent, urgency } from '../status';
import { numberMap, trackingMap } from '../tracking';
import { Badge, ErrorBox, Loading, PageTitle, TableWrap } from '../ui';
import { MaintenanceTable, type AssetRef } from './maintenance-table';

/** Names and links of everything a maintenance item can be related to. */
export function assetRefs(d: Pick<FleetOverviewQuery, 'aircraftList' | 'vehicles' | 'components'>): Map<string, AssetRef> {
  const m = new Map<string, AssetRef>();
  for (const a of d.aircraftList.data) m.set(`aircraft:${a.uid}`, { name: a.registration, href: `/console/aircraft/${encodeURIComponent(a.uid)}` });
  for (const v of d.vehicles.data) m.set(`vehicle:${v.uid}`, { name: v.registration, href: `/console/vehicles/${encodeURIComponent(v.uid)}` });
  for (const c of d.components.data) {
    const root = c.rootAsset;
    m.set(`component:${c.uid}`, {
      name: `${c.name} S/N ${c.serialNumber}${root ? ` on ${root.name}` : ''}`,
      href: root ? `/console/${root.type === 'aircraft' ? 'aircraft' : 'vehicles'}/${encodeURIComponent(root.uid)}` : undefined,
    });
  }
  return m;
}

/** The next limit of an asset: its most urgent item, its own or a fitted component's. */
function NextLimit({ item }: { item?: StatusItemFragment }) {
  if (!item) return <span class="muted">No items</span>;
  const parts: string[] = [];
  if (item.remaining !== null && item.remaining !== undefined) {
    parts.push(item.remaining < 0 ? `${num(-item.remaining)} ${item.trackingItemDisplayText ?? ''} over` : `${num(item.remaining)} ${item.trackingItemDisplayText ?? ''} left`);
  }
  if (item.calendarDaysRemaining !== null && item.calendarDaysRemaining !== undefined) parts.push(daysText(item.calendarDaysRemaining));
  return (
    <>
      <Badge urgency={urgency(item)} /> {item.name}
      <span class="muted"> {parts.join(', ')}</span>
    </>
  );
}

function Totals({ items, totals }: { items: unknown; totals: unknown }) {
  const meta = trackingMap(items);
  const t = numberMap(totals);
  const keys = Object.keys(meta).filter((k) => meta[k].type === 'number');
  if (!keys.length) return <span class="muted">—</span>;
  return (
    <ul class="totals">
      {keys.map((k) => (
        <li key={k} data-total={k}>
          {meta[k].displayText} <strong>{num(t[k], meta[k].precision)}</strong>
        </li>
      ))}
    </ul>
  );
}

export function FleetPage() {
  const { timeZone } = useApp();
  const q = useQuery(FleetOverviewDocument, { timezone: timeZone });
  const d = q.data;
  const status = d?.maintenanceStatus.data ?? [];
  const refs = d ? assetRefs(d) : new Map<string, AssetRef>();
  // an asset's items: its own and those of components under it
  const rootOf = new Map(d?.components.data.map((c) => [c.uid, c.rootAsset?.uid]) ?? []);
  const itemsOf = (uid: string) => status.filter((s) => s.relatedTo === uid || (s.relatedToType === 'component' && rootOf.get(s.relatedTo) === uid));
  const overdue = status.filter((s) => urgency(s) === 'overdue').length;
  const due = status.filter((s) => urgency(s) === 'due').length;
  const dueSoon = status.filter((s) => urgency(s) === 'dueSoon').length;
  return (
    <>
      <PageTitle title="Fleet">Fleet</PageTitle>
      <ErrorBox error={q.error} />
      {!d ? (
        <Loading />
      ) : (
        <>
          <p class="summary" role="status">
            <span class="count-overdue">{overdue} overdue</span>, <span class="count-overdue">{due} due now</span>,{' '}
            <span class="count-due-soon">{dueSoon} due soon</span>{' '}
            <span class="muted">
              (due soon: within {thresholds.days} days or {thresholds.units} hours, landings or other units)
            </span>
          </p>
          <section aria-labelledby="h-status">
            <h2 id="h-status">Maintenance status</h2>
            <MaintenanceTable items={status} assets={refs} caption="Maintenance items across the fleet, overdue first" />
          </section>
          <section aria-labelledby="h-aircraft">
            <h2 id="h-aircraft">Aircraft</h2>
            <TableWrap label="Aircraft">
              <table>
                <caption>Aircraft: current totals and next limit</caption>
                <thead>
                  <tr>
                    <th scope="col">Registration</th>
                    <th scope="col">Type</th>
                    <th scope="col">Totals</th>
                    <th scope="col">Next limit</th>
                  </tr>
                </thead>
                <tbody>
                  {d.aircraftList.data.map((a) => (
                    <tr key={a.uid} data-asset={a.uid}>
                      <th scope="row">
                        <a href={`/console/aircraft/${encodeURIComponent(a.uid)}`}>{a.registration}</a>
                      </th>
                      <td>
                        {[a.manufacturer, a.model].filter(Boolean).join(' ') || a.type}
                        {a.status !== 'active' ? <span class="muted"> ({a.status})</span> : null}
                      </td>
                      <td>
                        <Totals items={a.maintenanceTrackingItems} totals={a.totals} />
                      </td>
                      <td>
                        <NextLimit item={mostUrgent(itemsOf(a.uid))} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </section>
          <section aria-labelledby="h-vehicles">
            <h2 id="h-vehicles">Vehicles</h2>
            {d.vehicles.data.length ? (
              <TableWrap label="Vehicles">
                <table>
                  <caption>Vehicles: current totals and next limit</caption>
                  <thead>
                    <tr>
                      <th scope="col">Registration</th>
                      <th scope="col">Vehicle</th>
                      <th scope="col">Totals</th>
                      <th scope="col">Next limit</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.vehicles.data.map((v) => (
                      <tr key={v.uid} data-asset={v.uid}>
                        <th scope="row">
                          <a href={`/console/vehicles/${encodeURIComponent(v.uid)}`}>{v.registration}</a>
                        </th>
                        <td>
                          {v.make} {v.model}
                        </td>
                        <td>
                          <Totals items={v.maintenanceTrackingItems} totals={v.totals} />
                        </td>
                        <td>
                          <NextLimit item={mostUrgent(itemsOf(v.uid))} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            ) : (
              <p>No vehicles.</p>
            )}
          </section>
        </>
      )}
    </>
  );
}
