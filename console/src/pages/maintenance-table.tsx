import type { StatusItemFragment } from '../../generated/graphql';
import { calendarDate, daysText, num } from '../format';
import { byUrgency, urgency } from '../status';
import { Badge, TableWrap } from '../ui';

/** How a maintenance item's asset is shown: a name and, for aircraft and vehicles, a link to its page. */
export interface AssetRef {
  name: string;
  href?: string;
}

/** Maintenance status rows, overdue, then due soon, then OK (src/status.ts): status, item, asset, by hours, by days. */
export function MaintenanceTable({ items, assets, caption }: { items: StatusItemFragment[]; assets: Map<string, AssetRef>; caption: string }) {
  if (!items.length) return <p>No active maintenance items.</p>;
  return (
    <TableWrap label={caption}>
      <table class="status-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Item</th>
            <th scope="col">Asset</th>
            <th scope="col">By hours / usage</th>
            <th scope="col">By days</th>
          </tr>
        </thead>
        <tbody>
          {byUrgency(items).map((s) => {
            const u = urgency(s);
            const asset = assets.get(`${s.relatedToType}:${s.relatedTo}`);
            return (
              <tr key={s.scheduleItemUid} class={`row-${u}`} data-item={s.scheduleItemUid}>
                <td>
                  <Badge urgency={u} />
                </td>
                <td>
                  <span class="item-name">{s.name}</span>
                  <span class="muted"> {s.type}{s.recurring ? ', recurring' : ''}</span>
                </td>
                <td>{asset?.href ? <a href={asset.href}>{asset.name}</a> : (asset?.name ?? `${s.relatedToType} ${s.relatedTo}`)}</td>
                <td>
                  {s.remaining !== null && s.remaining !== undefined ? (
                    <>
                      <strong>{s.remaining < 0 ? `${num(-s.remaining)} over` : `${num(s.remaining)} left`}</strong>
                      <span class="muted">
                        {' '}
                        {s.trackingItemDisplayText ?? s.trackingItem}: due {num(s.dueAtInterval)}, now {num(s.currentTotal)}
                      </span>
                    </>
                  ) : s.trackingItem ? (
                    <span class="muted">{s.trackingItemDisplayText ?? s.trackingItem}: no reading</span>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  {s.calendarDaysRemaining !== null && s.calendarDaysRemaining !== undefined ? (
                    <>
                      <strong>{daysText(s.calendarDaysRemaining)}</strong>
                      <span class="muted"> due {calendarDate(s.calendarDateDue)}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
