import { FormsDocument } from '../../generated/graphql';
import { useQuery } from '../api';
import { useCanWrite } from '../app';
import { ErrorBox, Loading, PageTitle, TableWrap } from '../ui';

export function FormsPage() {
  const q = useQuery(FormsDocument, {});
  const canWrite = useCanWrite();
  const forms = q.data?.forms.data ?? [];
  return (
    <>
      <PageTitle title="Forms">Forms</PageTitle>
      <ErrorBox error={q.error} />
      {!q.data ? (
        q.error ? null : <Loading />
      ) : !forms.length ? (
        <p>No form templates yet.</p>
      ) : (
        <TableWrap label="Form templates">
          <table>
            <caption>Form templates</caption>
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col">Code</th>
                <th scope="col">Department</th>
                <th scope="col" class="num">
                  Revision
                </th>
                <th scope="col">Status</th>
                <th scope="col">Delivered to</th>
                <th scope="col">Public</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {forms.map((f) => (
                <tr key={f.uid}>
                  <th scope="row">
                    <a href={`/console/forms/${encodeURIComponent(f.uid)}`}>{f.name}</a>
                  </th>
                  <td>
                    <code>{f.code}</code>
                  </td>
                  <td>{f.department}</td>
                  <td class="num">{f.revision ?? '—'}</td>
                  <td>{f.status}</td>
                  <td>
                    {f.webhooks.length} webhook{f.webhooks.length === 1 ? '' : 's'}
                    {f.notification ? ', notifications' : ''}
                  </td>
                  <td>
                    {f.publiclyAvailable && f.publicId ? (
                      <a href={`/forms/public/${encodeURIComponent(f.publicId)}`} target="_blank" rel="noopener">
                        Public link<span class="visually-hidden"> of {f.name} (opens in a new tab)</span>
                      </a>
                    ) : (
                      'No'
                    )}
                  </td>
                  <td>
                    {f.status === 'active' && canWrite ? (
                      <a href={`/console/forms/${encodeURIComponent(f.uid)}/fill`}>
                        Fill in<span class="visually-hidden"> {f.name}</span>
                      </a>
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
