import { useEffect, useState } from 'preact/hooks';
import { AdminUserDocument, CreateUserDocument, type CreateUserInput, UpdateUserDocument, type UpdateUserInput, type UserStatus } from '../../generated/graphql';
import { asTyped, errorsByField, gql, useQuery } from '../api';
import { useApp } from '../app';
import { timeZones } from '../format';
import { Field, ErrorBox, Loading, FormErrors, useSubmit } from '../ui';
import { AdminFrame } from './admin';
import { USER_STATUSES } from './admin-users';

const TEXT = [
  { key: 'displayName', label: 'Display name', required: true },
  { key: 'email', label: 'Email', required: true, type: 'email' },
  { key: 'firstName', label: 'First name' },
  { key: 'lastName', label: 'Last name' },
  { key: 'phone', label: 'Phone', hint: 'E.164: + and the country code, no spaces, e.g. +61412345678', type: 'tel' },
] as const;

const rolesOf = (s: string) => s.split(',').map((r) => r.trim()).filter(Boolean);

/**
 * Add or edit a user (admin): status, roles, names, email, phone, time zone. On edit only what changed is sent, and
 * a cleared optional field is sent as null (cleared). Mistakes are the API's messages at their fields.
 */
export function AdminUserFormPage({ uid }: { uid?: string }) {
  const { navigate } = useApp();
  const existing = useQuery(AdminUserDocument, { uid: uid ?? '' }, { skip: !uid });
  const [values, setValues] = useState<Record<string, string>>({ status: 'Active', roles: '' });
  const [loaded, setLoaded] = useState(false);
  const { busy, error, submit: submitting } = useSubmit();
  const user = existing.data?.user;

  useEffect(() => {
    if (!user) return;
    setValues({
      displayName: user.displayName,
      email: user.email,
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      phone: user.phone ?? '',
      timezone: user.timezone ?? '',
      status: user.status,
      roles: user.roles.join(', '),
    });
    setLoaded(true);
  }, [user]);

  const errors = errorsByField(error ?? undefined);
  const set = (k: string) => (e: Event) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value });

  const input = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const k of ['displayName', 'email', 'firstName', 'lastName', 'phone', 'timezone'] as const) {
      const v = (values[k] ?? '').trim();
      if (!user) {
        if (v !== '' || k === 'displayName' || k === 'email') out[k] = v;
      } else if ((user[k] ?? '') !== v) out[k] = v === '' && k !== 'displayName' && k !== 'email' ? null : v;
    }
    if (!user) {
      if ((values.uid ?? '').trim()) out.uid = values.uid.trim();
      out.status = values.status;
      out.roles = rolesOf(values.roles ?? '');
    } else {
      if (values.status !== user.status) out.status = values.status as UserStatus;
      const roles = rolesOf(values.roles ?? '');
      if (JSON.stringify(roles) !== JSON.stringify(user.roles)) out.roles = roles;
    }
    return out;
  };

  const submit = submitting(async () => {
    if (uid) {
      const r = await gql(UpdateUserDocument, { uid, input: asTyped<UpdateUserInput>(input()) });
      navigate('/console/admin/users', { flash: r.updateUser.status === 'no_changes' ? 'No changes to save.' : `User ${values.displayName.trim()} updated.` });
    } else {
      await gql(CreateUserDocument, { input: asTyped<CreateUserInput>(input()) });
      navigate('/console/admin/users', { flash: `User ${values.displayName.trim()} added.` });
    }
  });

  const title = uid ? `Edit user${user ? ` ${user.displayName}` : ''}` : 'Add a user';
  if (existing.error) return (<AdminFrame title={title}><ErrorBox error={existing.error} /></AdminFrame>);
  if (uid && !loaded) return (<AdminFrame title={title}><Loading /></AdminFrame>);
  const placed = new Set(['uid', 'status', 'roles', 'timezone', ...TEXT.map((f) => f.key)]);
  const unplaced = Object.entries(errors).filter(([k]) => !placed.has(k.split('.')[0]));
  const zones = timeZones();
  return (
    <AdminFrame title={title}>
      <p>
        <a href="/console/admin/users">Back to the users</a>
      </p>
      <form class="stacked" onSubmit={submit} noValidate>
        <FormErrors error={error} unplaced={unplaced} />
        <fieldset>
          <legend>User</legend>
          {uid ? (
            <p>
              Id <code>{uid}</code>
            </p>
          ) : (
            <Field id="uid" label="Id (optional)" error={errors.uid} hint="The user’s id at your identity provider; made by the server when left empty">
              {(p) => <input {...p} type="text" spellcheck={false} value={values.uid ?? ''} onInput={set('uid')} />}
            </Field>
          )}
          {TEXT.map((f) => (
            <Field key={f.key} id={f.key} label={<>{f.label}{'required' in f ? <span class="req"> (required)</span> : null}</>} error={errors[f.key]} hint={'hint' in f ? f.hint : undefined}>
              {(p) => <input {...p} type={('type' in f ? f.type : 'text') as 'text'} value={values[f.key] ?? ''} onInput={set(f.key)} />}
            </Field>
          ))}
          <div class="row">
            <Field id="status" label="Status" error={errors.status} hint="Inactive users stay in the records; users are never deleted">
              {(p) => (
                <select {...p} value={values.status} onChange={set('status')}>
                  {USER_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="timezone" label="Time zone" error={errors.timezone}>
              {(p) => (
                <select {...p} value={values.timezone ?? ''} onChange={set('timezone')}>
                  <option value="">Not set</option>
                  {values.timezone && !zones.includes(values.timezone) ? <option value={values.timezone}>{values.timezone}</option> : null}
                  {zones.map((z) => (
                    <option key={z} value={z}>
                      {z}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field id="roles" label="Roles" error={errors.roles ?? Object.entries(errors).find(([k]) => k.startsWith('roles.'))?.[1]} hint="Separated by commas, e.g. pilot, admin: information about the user, not permissions (a key’s scope decides what it may do)">
            {(p) => <input {...p} type="text" value={values.roles ?? ''} onInput={set('roles')} />}
          </Field>
        </fieldset>
        <p class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : uid ? 'Save changes' : 'Add user'}
          </button>
        </p>
      </form>
    </AdminFrame>
  );
}
