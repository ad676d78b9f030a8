import { AdminAircraftListDocument } from '../../generated/graphql';
import { useQuery } from '../api';
import { num } from '../format';
import { trackingMap, numberMap } from '../tracking';
import { ErrorBox, Loading, TableWrap } from '../ui';
import { AdminFrame } from './admin';

/** Aircraft (admin): the company's aircraft with their tracking items, to add, edit or delete. */
export function AdminAircraftPage() {
  const q = useQuery(AdminAircraftListDocument, {});
  const list = q.data?.aircraftList.data;
  return (
    <AdminFrame title="Manage aircraft" heading="Aircraft">
      <p class="actions">
        <a class="button" href="/console/admin/aircraft/new">
          Add an aircraft
        </a>
      </p>
      <ErrorBox error={q.error} />
      {!list ? (
        q.error ? null : <Loading />
      ) : (
        <TableWrap label="Aircraft">
          <table class="admin-aircraft">
            <caption>Aircraft of the company, by registration</caption>
            <thead>
              <tr>
                <th scope="col">Registration</th>
                <th scope="col">Type</th>
                <th scope="col">Category</th>
                <th scope="col">Status</th>
                <th scope="col">Tracking items (total)</th>
              </tr>
            </thead>
            <tbody>
              {list.map((a) => {
                const maint = trackingMap(a.maintenanceTrackingItems);
                const logs = trackingMap(a.logTrackingItems);
                const totals = numberMap(a.totals);
                return (
                  <tr key={a.uid} data-aircraft={a.uid}>
                    <th scope="row">
                      <a href={`/console/admin/aircraft/${encodeURIComponent(a.uid)}`}>
                        {a.registration}
                      </a>
                    </th>
                    <td>
                      {a.type}
                      {a.manufacturer || a.model ? <span class="muted"> {[a.manufacturer, a.model].filter(Boolean).join(' ')}</span> : null}
                    </td>
                    <td>{a.category}</td>
                    <td>{a.status}</td>
                    <td>
                      {[
                        ...Object.entries(maint).map(([k, m]) => (m.type === 'number' ? `${m.displayText} (${num(totals[k], m.precision)})` : m.displayText)),
                        ...Object.values(logs).map((m) => `${m.displayText} (log)`),
                      ].join(', ') || '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </AdminFrame>
  );
}
