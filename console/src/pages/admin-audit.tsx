import { useEffect, useState } from 'preact/hooks';
import { AuditLogDocument, type AuditAction, type AuditEntity } from '../../generated/graphql';
import { useQuery } from '../api';
import { useApp, useSearch, withQuery } from '../app';
import { dateTime } from '../format';
import { ErrorBox, Loading, Options, Pager, TableWrap, usePager, filtersOf } from '../ui';
import { AdminFrame } from './admin';

const PAGE_SIZE = 25;
const ENTITIES: { value: AuditEntity; label: string; one: string }[] = [
  { value: 'aircraft', label: 'Aircraft', one: 'Aircraft' },
  { value: 'user', label: 'Users', one: 'User' },
  { value: 'api_key', label: 'API keys', one: 'API key' },
  { value: 'settings', label: 'Settings (integrations, alerts)', one: 'Settings' },
];
const ACTIONS: AuditAction[] = ['created', 'updated', 'deleted', 'revoked'];

/** A value of a changed field as text: JSON for objects, — for none. */
function shown(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/**
 * The audit log (admin): every management write and key event, newest first, a page at a time, filtered by the kind
 * of record and its id (the filters are in the address, so a record's history can be linked). Each entry shows the
 * fields it changed, before and after.
 */
export function AdminAuditPage() {
  const { timeZone, navigate } = useApp();
  const search = useSearch();
  const filters = { entity: search.get('entity') ?? '', entityId: search.get('entityId') ?? '', action: search.get('action') ?? '' };
  const [draft, setDraft] = useState(filters);
  const pager = usePager();
  // the filters in the address (a page of them is not a change of filters)
  const applied = filtersOf(search);
  useEffect(() => {
    setDraft(filters);
  }, [applied]);
  const q = useQuery(AuditLogDocument, {
    entity: (filters.entity || undefined) as AuditEntity | undefined,
    entityId: filters.entityId || undefined,
    action: (filters.action || undefined) as AuditAction | undefined,
    cursor: pager.cursor ?? undefined,
    limit: PAGE_SIZE,
  });
  const set = (k: keyof typeof filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });
  const page = q.data?.auditLog;
  const keyNames = new Map((q.data?.apiKeys.data ?? []).map((k) => [k.id, k.name]));
  return (
    <AdminFrame title="Audit log">
      <form
        class="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withQuery('/console/admin/audit', { ...draft, entityId: draft.entityId.trim() }), { replace: true });
        }}
      >
        <div class="field">
          <label for="a-entity">Record kind</label>
          <select id="a-entity" value={draft.entity} onChange={set('entity')}>
            <Options none="All kinds" items={ENTITIES} value={(x) => x.value} label={(x) => x.label} />
          </select>
        </div>
        <div class="field">
          <label for="a-id">Record id</label>
          <input id="a-id" type="text" spellcheck={false} value={draft.entityId} onInput={set('entityId')} />
        </div>
        <div class="field">
          <label for="a-action">Action</label>
          <select id="a-action" value={draft.action} onChange={set('action')}>
            <Options none="All actions" items={ACTIONS} />
          </select>
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
          {page.data.length ? (
            <TableWrap label="Audit log entries">
              <table class="audit">
                <caption>Audit log, page {pager.number}, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When ({timeZone})</th>
                    <th scope="col">Action</th>
                    <th scope="col">Record</th>
                    <th scope="col">By</th>
                    <th scope="col">Changes (before → after)</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((a) => {
                    const changes = Object.entries((a.changes ?? {}) as Record<string, { before: unknown; after: unknown }>);
                    return (
                      <tr key={a.uid} data-audit={a.uid} data-entity-id={a.entityId}>
                        <td>{dateTime(a.at, timeZone)}</td>
                        <td>{a.action}</td>
                        <td>
                          {ENTITIES.find((x) => x.value === a.entity)?.one ?? a.entity}{' '}
                          <a href={withQuery('/console/admin/audit', { entity: a.entity, entityId: a.entityId })}>
                            <code>{a.entityId}</code>
                          </a>
                        </td>
                        <td>
                          {a.keyId ? (
                            <>
                              key {keyNames.get(a.keyId) ?? ''} (<code>{a.keyId}</code>)
                            </>
                          ) : (
                            'server'
                          )}
                          {a.userId ? <> as {a.userId}</> : null} <span class="muted">({a.channel})</span>
                        </td>
                        <td class="wrap">
                          {changes.length ? (
                            <ul class="changes">
                              {changes.map(([f, c]) => (
                                <li key={f} data-field={f}>
                                  <strong>{f}</strong>: <span class="visually-hidden">before </span>
                                  <del>{shown(c.before)}</del> → <span class="visually-hidden">after </span>
                                  <ins>{shown(c.after)}</ins>
                                </li>
                              ))}
                            </ul>
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
          ) : (
            <p>No audit entries{applied ? ' match these filters' : ''}.</p>
          )}
          <Pager label="Pages of the audit log" pager={pager} nextCursor={page.nextCursor} />
        </>
      )}
    </AdminFrame>
  );
}
