import { useState } from 'preact/hooks';
import { AdminUsersDocument, type UserStatus } from '../../generated/graphql';
import { useQuery } from '../api';
import { ErrorBox, Loading, Options, TableWrap } from '../ui';
import { AdminFrame } from './admin';

export const USER_STATUSES: UserStatus[] = ['Active', 'Pending', 'Inactive'];

/** Users (admin): the company's users, by status, to add or edit (users are never deleted: Inactive is how one leaves). */
export function AdminUsersPage() {
  const [status, setStatus] = useState<UserStatus | ''>('');
  const q = useQuery(AdminUsersDocument, { status: status || undefined });
  const users = q.data?.users.data;
  return (
    <AdminFrame title="Manage users" heading="Users">
      <p class="actions">
        <a class="button" href="/console/admin/users/new">
          Add a user
        </a>
      </p>
      <form class="filters" aria-label="Filter users" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="u-status">Status</label>
          <select id="u-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as UserStatus | '')}>
            <Options none="All users" items={USER_STATUSES} />
          </select>
        </div>
      </form>
      <ErrorBox error={q.error} />
      {!users ? (
        q.error ? null : <Loading />
      ) : (
        <TableWrap label="Users">
          <table class="users">
            <caption>Users of the company{status ? ` (${status})` : ''}, by name</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Roles</th>
                <th scope="col">Phone</th>
                <th scope="col">Time zone</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.uid} data-user={u.uid}>
                  <th scope="row">
                    <a href={`/console/admin/users/${encodeURIComponent(u.uid)}`}>{u.displayName}</a>
                  </th>
                  <td class="wrap">{u.email}</td>
                  <td>{u.status}</td>
                  <td>{u.roles.join(', ') || '—'}</td>
                  <td>{u.phone ?? '—'}</td>
                  <td>{u.timezone ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {q.data?.users.nextCursor ? <p class="muted">The first 100 users are shown.</p> : null}
    </AdminFrame>
  );
}
