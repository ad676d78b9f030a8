import type { Prisma } from '../../generated/prisma/client.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { changesBetween, recordAudit, type AuditActor } from '../audit/service.js';

/**
 * One save of a company settings column (CompanySettings.sms, .alerts): the company's row locked first, so two
 * saves at once are applied and audited in the order they were made; the stored value read, the new one made from
 * it (`next` may refuse with a 400, which changes nothing), written, and the change recorded in the audit log in the
 * same transaction (nothing for a save that changes nothing). `audited` is a value as its audit entry shows it
 * (secrets only as marks).
 */
export async function saveCompanySettings<S>(
  db: ScopedPrisma,
  actor: AuditActor,
  spec: {
    entityId: 'integrations' | 'alerts';
    read: (tx: ScopedPrisma) => Promise<S | null>;
    next: (old: S | null) => S;
    data: (value: S) => Omit<Prisma.CompanySettingsUncheckedCreateInput, 'companyId'>;
    audited: (value: S | null, old: S | null) => object | null;
    fields: readonly string[];
    /** whether saving over no stored value is audited as `created` (else `updated`) */
    firstIsCreated?: boolean;
  },
): Promise<S> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Company" WHERE id = ${COMPANY} FOR UPDATE`;
    const old = await spec.read(tx);
    const value = spec.next(old);
    const data = spec.data(value);
    await tx.companySettings.upsert({ where: { companyId: tx.companyId }, create: data, update: data });
    const changes = changesBetween(spec.audited(old, old), spec.audited(value, old), spec.fields);
    const action = spec.firstIsCreated && !old ? 'created' : 'updated';
    if (Object.keys(changes).length) await recordAudit(tx, actor, { entity: 'settings', entityId: spec.entityId, action, changes });
    return value;
  });
}
