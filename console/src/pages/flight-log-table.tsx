import type { FlightLogRowFragment } from '../../generated/graphql';
import { useApp, useCanWrite } from '../app';
import { dateTime, num } from '../format';
import { trackingMap, type TrackingMap } from '../tracking';
import { TableWrap } from '../ui';

type AircraftMeta = { uid: string; maintenanceTrackingItems: unknown; logTrackingItems: unknown };

/**
 * Tracking values of a log as `Hobbs 1.5, Landings 2, Remarks Charter`, named and rounded as its aircraft declares
 * them, in the aircraft's order (maintenance items, then log items, then any the aircraft no longer declares); the
 * stored values come in the database's key order, which would put `Remarks` between `Hobbs` and `Landings`.
 */
function trackingText(log: FlightLogRowFragment, meta: TrackingMap): string {
  const values = (log.trackingItems ?? {}) as Record<string, number | string>;
  const order = Object.keys(meta);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.entries(values)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([k, v]) => `${meta[k]?.displayText ?? k} ${typeof v === 'number' ? num(v, meta[k]?.precision) : v}`)
    .join(', ');
}

export function FlightLogTable({ logs, aircraft, caption }: { logs: FlightLogRowFragment[]; aircraft: AircraftMeta[]; caption: string }) {
  const { timeZone } = useApp();
  const canWrite = useCanWrite();
  if (!logs.length) return <p>No flight logs.</p>;
  const meta = new Map(aircraft.map((a) => [a.uid, { ...trackingMap(a.maintenanceTrackingItems), ...trackingMap(a.logTrackingItems) }]));
  return (
    <TableWrap label={caption}>
      <table class="logs">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date ({timeZone})</th>
            <th scope="col">Aircraft</th>
            <th scope="col">Pilot</th>
            <th scope="col">Route</th>
            <th scope="col" class="num">
              Pax
            </th>
            <th scope="col">Tracking</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {logs.map((l) => (
            <tr key={l.uid} data-log={l.uid}>
              <td>{dateTime(l.timeDate, timeZone)}</td>
              <td>{l.aircraftRegistration}</td>
              <td>{l.pilotUser?.displayName ?? l.pilot}</td>
              <td>
                {l.startLocation} → {l.endLocation}
                {l.flightNumber ? <span class="muted"> {l.flightNumber}</span> : null}
              </td>
              <td class="num">{l.pax ?? '—'}</td>
              <td>{trackingText(l, meta.get(l.aircraftId) ?? {})}</td>
              <td>
                <a href={`/console/flight-logs/${encodeURIComponent(l.uid)}`} aria-label={`${canWrite ? 'Edit' : 'View'} the flight of ${dateTime(l.timeDate, timeZone)} on ${l.aircraftRegistration}`}>
                  {canWrite ? 'Edit' : 'View'}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
