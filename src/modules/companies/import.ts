import { rejectFault } from '../../lib/input-faults.js';
import { z } from 'zod';
import { ApiKeyService, hashKey, notifyKeyChange } from '../../auth/keys.js';
import { invalidateKey } from '../../auth/key-cache.js';
import { createServices } from '../../context.js';
import type { Database } from '../../db/database.js';
import { scopedPrisma } from '../../db/scoped.js';
import { AppError, ValidationError, fieldErrorsFromZod } from '../../errors.js';
import { KEY_SCOPES } from '../../auth/scopes.js';
import { changesBetween, recordAudit, type AuditActor } from '../audit/service.js';
import { CreateApiKeySchema } from '../api-keys/service.js';
import type { UpsertStatus } from '../../lib/write-result.js';

/** Who the audit log names for what an import file changes. */
const IMPORT_ACTOR: AuditActor = { keyId: null, userId: null, channel: 'import' };

/**
 * `fleetops import FILE.json` (docs/contract/gaps.md §1): creates or updates companies, users, aircraft, vehicles and API keys,
 * idempotent by uid/id, in ONE transaction: a bad entry rolls everything back and the error names the entry
 * by its JSON Pointer (e.g. /companies/0/aircraft/1/registration).
 */
const entityList = z.array(z.record(z.string(), z.unknown())).default([]);

export const ImportFileSchema = z
  .object({
    companies: z
      .array(
        z
          .object({
            id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'company id: letters, digits, _ . - (max 64)'),
            name: z.string().min(1),
            users: entityList,
            aircraft: entityList,
            vehicles: entityList,
            apiKeys: z
              .array(z
                  .object({
                    name: CreateApiKeySchema.shape.name.default('imported'),
                    key: z.string().min(20),
                    userId: z.string().optional(),
                    scope: z.enum(KEY_SCOPES).default('read_write'),
                  })
                  .strict())
              .default([]),
          })
          .strict(),
      )
      .min(1, 'the file lists no companies'),
  })
  .strict();

export interface CompanyImportSummary {
  id: string;
  company: UpsertStatus;
  users: Tally;
  aircraft: Tally;
  vehicles: Tally;
  apiKeys: Tally;
}
type Tally = Record<UpsertStatus, number>;
const tally = (): Tally => ({ created: 0, updated: 0, unchanged: 0 });

export class ImportError extends Error {}

/**
 * An entry's upsert, its refusal named at the entry: a check of the entry's own fields reports their paths under
 * `path` already; a refusal of the service's rules (a registration or email another record has, a tracking key
 * that flight logs carry) is put there too, with the paths it names.
 */
async function entry<T>(path: string, upsert: (path: string) => Promise<T>): Promise<T> {
  try {
    return await upsert(path);
  } catch (e) {
    if (!(e instanceof AppError) || e instanceof ValidationError) throw e;
    const errors = e.errors?.length ? e.errors.map((f) => ({ path: path + f.path, message: f.message })) : [{ path, message: e.message }];
    throw new ValidationError('invalid import file', errors);
  }
}

export async function importData(database: Database, raw: unknown): Promise<CompanyImportSummary[]> {
  // what no channel takes (NUL in text, a `__proto__` key) the import file does not either
  rejectFault(raw, 'import file');
  const parsed = ImportFileSchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError('invalid import file', fieldErrorsFromZod(parsed.error.issues));
  const file = parsed.data;
  const ids = new Set<string>();
  file.companies.forEach((c, i) => {
    if (ids.has(c.id)) throw new ValidationError('invalid import file', [{ path: `/companies/${i}/id`, message: `company ${c.id} is listed twice` }]);
    ids.add(c.id);
  });

  const changedKeys: string[] = [];
  const summaries = await database.prisma.$transaction(
    async (tx) => {
      const summaries: CompanyImportSummary[] = [];
      for (const [ci, c] of file.companies.entries()) {
        const at = `/companies/${ci}`;
        const existing = await tx.company.findUnique({ where: { id: c.id } });
        if (existing && existing.name !== c.name) await tx.company.update({ where: { id: c.id }, data: { name: c.name } });
        else if (!existing) await tx.company.create({ data: { id: c.id, name: c.name } });
        const scoped = scopedPrisma(tx, c.id, true);
        const services = createServices(scoped, 'api', () => IMPORT_ACTOR);
        const s: CompanyImportSummary = {
          id: c.id,
          company: !existing ? 'created' : existing.name !== c.name ? 'updated' : 'unchanged',
          users: tally(),
          aircraft: tally(),
          vehicles: tally(),
          apiKeys: tally(),
        };
        const seen = (kind: string, list: Record<string, unknown>[]) => {
          const uids = new Set<unknown>();
          list.forEach((e, i) => {
            // an entry without a uid is the entry check's to report (uid is required)
            if (typeof e.uid !== 'string') return;
            if (uids.has(e.uid)) throw new ValidationError('invalid import file', [{ path: `${at}/${kind}/${i}/uid`, message: `uid ${String(e.uid)} is listed twice` }]);
            uids.add(e.uid);
          });
        };
        seen('users', c.users);
        seen('aircraft', c.aircraft);
        seen('vehicles', c.vehicles);
        for (const [i, u] of c.users.entries()) s.users[await entry(`${at}/users/${i}`, (path) => services.users.upsert(u, path))]++;
        for (const [i, a] of c.aircraft.entries()) s.aircraft[await entry(`${at}/aircraft/${i}`, (path) => services.aircraft.upsert(a, path))]++;
        for (const [i, v] of c.vehicles.entries()) s.vehicles[await entry(`${at}/vehicles/${i}`, (path) => services.vehicles.upsert(v, path))]++;
        const keys = new ApiKeyService(tx, { inTransaction: true });
        for (const [i, k] of c.apiKeys.entries()) {
          const found = await tx.apiKey.findUnique({ where: { hash: hashKey(k.key) } });
          if (found && found.companyId !== c.id) {
            throw new ValidationError('invalid import file', [{ path: `${at}/apiKeys/${i}/key`, message: 'this key already belongs to another company' }]);
          }
          if (found && k.userId && !(await tx.user.findUnique({ where: { companyId_uid: { companyId: c.id, uid: k.userId } } }))) {
            throw new ValidationError('invalid import file', [{ path: `${at}/apiKeys/${i}/userId`, message: `user ${k.userId} is not a user of company ${c.id}` }]);
          }
          if (found) {
            // a key revoked since it was imported stays revoked: a file imported again (a provisioning script) must
            // not bring back a key someone revoked, perhaps because it leaked; a revoked key never comes back
            const changes = changesBetween(found, { ...found, name: k.name, userId: k.userId ?? null, scope: k.scope }, ['name', 'userId', 'scope']);
            if (!Object.keys(changes).length) {
              s.apiKeys.unchanged++;
              continue;
            }
            await tx.apiKey.update({ where: { id: found.id }, data: { name: k.name, userId: k.userId ?? null, scope: k.scope } });
            await recordAudit(scoped, IMPORT_ACTOR, { entity: 'api_key', entityId: found.id, action: 'updated', changes });
            // a server may hold this key with its former user: it must re-read it
            await notifyKeyChange(tx, found.hash);
            changedKeys.push(found.hash);
            s.apiKeys.updated++;
          } else {
            try {
              await keys.create({ companyId: c.id, name: k.name, key: k.key, userId: k.userId, scope: k.scope, channel: 'import' });
            } catch (e) {
              if (e instanceof AppError) {
                // the field the key's rules name (its userId, its name), as every other entry is named
                const base = `${at}/apiKeys/${i}`;
                throw new ValidationError('invalid import file', e.errors?.length ? e.errors.map((f) => ({ path: base + f.path, message: f.message })) : [{ path: base, message: e.message }]);
              }
              throw e;
            }
            s.apiKeys.created++;
          }
        }
        summaries.push(s);
      }
      return summaries;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  changedKeys.forEach(invalidateKey);
  return summaries;
}

export function formatSummary(s: CompanyImportSummary): string {
  const t = (name: string, x: Tally) => `${name} ${x.created} created, ${x.updated} updated, ${x.unchanged} unchanged`;
  return `${s.id}: company ${s.company}; ${t('users', s.users)}; ${t('aircraft', s.aircraft)}; ${t('vehicles', s.vehicles)}; ${t('API keys', s.apiKeys)}`;
}
