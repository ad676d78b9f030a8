import { useEffect, useState } from 'preact/hooks';
import { ResendDeliveryDocument, type DeliveryRowFragment } from '../../generated/graphql';
import { ApiError, gql } from '../api';
import { useApp, useCanWrite } from '../app';
import { dateTime } from '../format';
import { ErrorBox, TableWrap } from '../ui';

/** Outcomes of a send that was tried (a skipped one was not: no time to show). */
const ATTEMPTED = new Set(['delivered', 'failed']);

/**
 * A deliveries log (webhooks, emails, SMS): outcome, target, status code, time, error; each row can be sent again.
 * While a delivery is pending, the log is read again every two seconds (for a minute at most).
 */
export function DeliveriesTable({ rows, reload, caption }: { rows: DeliveryRowFragment[]; reload: () => void; caption: string }) {
  const { timeZone } = useApp();
  const canWrite = useCanWrite();
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState('');
  const pending = rows.some((r) => r.status === 'pending');
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!pending || polls >= 30) return;
    const t = setTimeout(() => {
      setPolls((n) => n + 1);
      reload();
    }, 2000);
    return () => clearTimeout(t);
  }, [pending, polls, rows]);
  const resend = async (d: DeliveryRowFragment) => {
    setError(null);
    try {
      const r = await gql(ResendDeliveryDocument, { id: d.uid });
      setNote(`Sent again to ${d.target}: new delivery ${r.resendDelivery.uid} is ${r.resendDelivery.status}.`);
      setPolls(0);
      reload();
    } catch (e) {
      setError(e as ApiError);
    }
  };
  return (
    <>
      <p class="actions">
        <button type="button" class="secondary" onClick={reload}>
          Refresh deliveries
        </button>
      </p>
      <p role="status">{note}</p>
      <ErrorBox error={error} title="Not sent again." />
      {!rows.length ? (
        <p>No deliveries yet: a submission is delivered to the form’s webhooks and notification recipients.</p>
      ) : (
        <TableWrap label={caption}>
          <table class="deliveries">
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Channel</th>
                <th scope="col">Target</th>
                <th scope="col">When ({timeZone})</th>
                <th scope="col">Result</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.uid} data-delivery={d.uid} class={`delivery-${d.status}`}>
                  <td>
                    <span class={`badge badge-delivery-${d.status}`}>{d.status}</span>
                  </td>
                  <td>{d.channel}</td>
                  <td class="wrap">{d.target}</td>
                  <td>{dateTime(d.attemptedAt ?? d.createdAt, timeZone)}</td>
                  <td>
                    {d.statusCode ? `HTTP ${d.statusCode}` : ''}
                    {ATTEMPTED.has(d.status) && d.durationMs !== null && d.durationMs !== undefined ? ` in ${d.durationMs} ms` : ''}
                    {d.error ? <span class="field-error"> {d.error}</span> : null}
                    {d.resendOf ? <span class="muted"> (re-send)</span> : null}
                  </td>
                  <td>
                    {canWrite ? (
                      <button type="button" class="secondary small" onClick={() => resend(d)} disabled={d.status === 'pending'} aria-label={`Re-send to ${d.target}`}>
                        Re-send
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}
