/**
 * What a write answers: the uid it touched and what it did. One family for every resource so GraphQL's single
 * `WriteStatus` enum and each REST result document describe the same values; a resource narrows `WriteResult` to
 * the statuses its contract names (e.g. `no_changes` when an update changes nothing, docs/api-notes.md "Flight
 * logs"; `installed`/`removed` only for components, docs/api-notes.md "Components").
 */
export const WRITE_STATUSES = ['created', 'updated', 'deleted', 'restored', 'no_changes', 'installed', 'removed'] as const;
export type WriteStatus = (typeof WRITE_STATUSES)[number];

export interface WriteResult<S extends WriteStatus = WriteStatus> {
  uid: string;
  status: S;
}

/** What an upsert by uid did (an import file's entries, the demo): `unchanged` when the record was as the input says. */
export type UpsertStatus = 'created' | 'updated' | 'unchanged';
