import DataLoader from 'dataloader';

/**
 * A per-request dataloader of a company's records by uid: one `findMany({ where: { uid: { in } } })` per tick,
 * through the company-scoped client, so lists resolve their relations without N+1 queries.
 */
export function uidLoader<T extends { uid: string }>(
  findMany: (args: { where: { uid: { in: string[] } } }) => Promise<T[]>,
): DataLoader<string, T | null> {
  return new DataLoader<string, T | null>(async (uids) => {
    const rows = await findMany({ where: { uid: { in: [...uids] } } });
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    return uids.map((u) => byUid.get(u) ?? null);
  });
}
