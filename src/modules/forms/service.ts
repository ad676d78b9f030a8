import { randomBytes } from 'node:crypto';
import type { Form, Prisma } from '../../generated/prisma/client.js';
import type { ScopedCreate, ScopedPrisma } from '../../db/scoped.js';
import { lockedWrite, type LockTarget } from '../../db/row-locks.js';
import { ConflictError, NotFoundError, ValidationError, invalid } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { parseFilter } from '../../lib/params.js';
import { readPage, type Page } from '../../db/keyset.js';
import { isUniqueViolation, jsonEqual } from '../../lib/json.js';
import { fieldSchemaDocument } from './fields.js';
import { checkSections } from './sections.js';
import { answerKeys, mergeSecrets, sectionsOf, webhooksOf, type Section } from './template.js';
import { FORM_FIELDS, FORM_ORDER, FormFilterSchema, checkFormCreate, checkFormUpdate, type CheckedForm, type FormFilter } from './schema.js';

/**
 * Form templates (docs/contract/api-v1.md §2.8, §4.3; docs/contract/gaps.md §9; docs/forms.md). Owns every rule of a template: the body schema,
 * sections and field objects checked against the field types (fields.ts), field references between fields,
 * per-company code uniqueness, write-only webhook secrets, and the completion schema derived from the fields.
 */
export {
  FORM_STATUSES,
  SERVER_CONTROLLED,
  CreateFormCheck,
  UpdateFormCheck,
  FormFilterSchema,
  checkFormCreate,
  checkFormUpdate,
  type CheckedForm,
  type FormFilter,
} from './schema.js';
export { checkSections } from './sections.js';
export {
  answerKeys,
  locatedFields,
  publicWebhooks,
  sectionsOf,
  storageKey,
  webhooksOf,
  type AnswerKey,
  type LocatedField,
  type Section,
  type StoredWebhook,
} from './template.js';

export interface FormWriteResult {
  uid: string;
  status: 'created' | 'updated' | 'no_changes';
}

/**
 * A new template's columns: the ones a row cannot do without typed, the others as FormFieldsSchema checked them.
 * Sections are JSON from the request body; their fields keep the UI keys they were sent with, typed `unknown`.
 */
type FormColumns = Record<string, unknown> & Pick<ScopedCreate<'Form'>, 'name' | 'code' | 'department' | 'sections'>;

/** A template's row for read-modify-write (src/db/row-locks.ts). */
const FORM_ROW: LockTarget<Form> = { table: 'Form', what: 'form', read: (tx, uid) => tx.form.findFirst({ where: { uid } }) };

export class FormService {
  constructor(private readonly db: ScopedPrisma) {}

  fieldSchema() {
    return fieldSchemaDocument();
  }

  /** Templates by name and uid, a page at a time (gaps.md §17). */
  async list(filter: FormFilter = {}): Promise<Page<Form>> {
    const { includeInactive, ...page } = parseFilter(FormFilterSchema, filter, 'invalid form query');
    return readPage(page, FORM_ORDER, 'form', includeInactive ? {} : { status: 'active' }, (q) => this.db.form.findMany(q));
  }

  /** A template by uid (active or inactive), or 404. */
  async get(uid: string): Promise<Form> {
    const row = await this.db.form.findFirst({ where: { uid } });
    if (!row) throw new NotFoundError('form', uid);
    return row;
  }

  /** Templates by uid, for batching (GraphQL completions → form). */
  async findMany(uids: readonly string[]): Promise<Form[]> {
    return this.db.form.findMany({ where: { uid: { in: [...uids] } } });
  }

  async completionSchema(uid: string) {
    const form = await this.get(uid);
    return {
      formId: form.uid,
      code: form.code,
      name: form.name,
      // absent when the form has none (REST leaves out what has no value: docs/api-notes.md)
      ...(form.revision !== null && form.revision !== undefined ? { revision: form.revision } : {}),
      status: form.status,
      fields: answerKeys(form),
    };
  }

  /** `input` is checked (CreateFormCheck: GraphQL's validation runs it; other callers parse with it). */
  async create(input: CheckedForm): Promise<FormWriteResult> {
    const data = columnsOf(input);
    const uid = newUid('fm');
    await this.write(this.db, () => this.db.form.create({ data: { uid, ...data } }), data);
    return { uid, status: 'created' };
  }

  /** `input` is checked (UpdateFormCheck). */
  async update(uid: string, input: CheckedForm): Promise<FormWriteResult> {
    const patch = input.fields;
    return lockedWrite(this.db, FORM_ROW, uid, async (tx, current) => {
      const next: Record<string, unknown> = {};
      for (const key of FORM_FIELDS) {
        if (!(key in patch)) continue;
        next[key] = patch[key] ?? null;
      }
      if (patch.sections) next.sections = checkSections(patch.sections);
      if (patch.webhooks) next.webhooks = mergeSecrets(patch.webhooks, webhooksOf(current));
      else if (patch.webhooks === null) next.webhooks = [];
      if (patch.signatories === null) next.signatories = [];
      if (patch.dynamicFields === null) next.dynamicFields = [];
      if (patch.publiclyAvailable === null) next.publiclyAvailable = false;
      if (patch.status === null) next.status = 'active';
      if (patch.notificationRecipients === null) next.notificationRecipients = null;
      const extra = { ...((current.extra ?? {}) as Record<string, unknown>) };
      for (const [k, v] of Object.entries(input.extra)) {
        if (v === null) delete extra[k];
        else extra[k] = v;
      }
      next.extra = extra;
      // a public form always has a public id: one the patch clears (null) is replaced by a new one
      const after = <K extends 'publiclyAvailable' | 'publicId'>(k: K) => (k in next ? next[k] : current[k]);
      if (after('publiclyAvailable') === true && !after('publicId')) next.publicId = newPublicId();
      if (after('publiclyAvailable') === true) {
        // the patch's sections at their paths; a patch that only makes the form public, at /publiclyAvailable
        if (next.sections) refuseUserFieldsIfPublic(next.sections as Section[]);
        else refuseUserFieldsIfPublic(sectionsOf(current), '/publiclyAvailable');
      }
      const changed = Object.fromEntries(
        Object.entries(next).filter(([k, v]) => !jsonEqual(v, (current as Record<string, unknown>)[k] ?? (k === 'extra' ? {} : null))),
      );
      if (!Object.keys(changed).length) return { uid, status: 'no_changes' as const };
      await this.write(tx, () => tx.form.updateMany({ where: { uid }, data: changed }), changed, uid);
      return { uid, status: 'updated' as const };
    });
  }

  /** Creates or updates a template by uid (demo, import): the same checks as the API. */
  async upsertTemplate(input: Record<string, unknown> & { uid: string }, pathPrefix = ''): Promise<'created' | 'updated'> {
    const { uid, ...body } = input;
    const existing = await this.db.form.findFirst({ where: { uid } });
    try {
      if (existing) {
        await this.update(uid, checkFormUpdate(body));
        return 'updated';
      }
      const data = columnsOf(checkFormCreate(body));
      await this.write(this.db, () => this.db.form.create({ data: { uid, ...data } }), data);
      return 'created';
    } catch (e) {
      if (e instanceof ValidationError && pathPrefix) throw new ValidationError(e.message, e.errors?.map((f) => ({ ...f, path: pathPrefix + f.path })));
      throw e;
    }
  }

  /** Runs a write, turning a taken code or publicId into a 409 (checked first; the unique index settles races). */
  private async write(db: ScopedPrisma, fn: () => Promise<unknown>, data: Record<string, unknown>, uid?: string): Promise<void> {
    const code = data.code as string | undefined;
    if (code !== undefined) {
      const other = await db.form.findFirst({ where: { code, ...(uid ? { uid: { not: uid } } : {}) }, select: { uid: true } });
      if (other) throw new ConflictError(`a form with code ${JSON.stringify(code)} already exists (${other.uid})`);
    }
    try {
      await fn();
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const msg = String((e as Error).message);
      if (/publicId/.test(msg)) throw new ConflictError(`publicId ${JSON.stringify(data.publicId)} is taken by another form`);
      throw new ConflictError(`a form with code ${JSON.stringify(code)} already exists`);
    }
  }
}

/**
 * A publicly available form has no `user` field (docs/forms.md §2): its anonymous submitters have no list of the
 * company's users to choose from, and whether a typed id is accepted would tell anyone which user ids the company
 * has. A 400 at each such field, or at `at` (an update that makes a form with one public).
 */
function refuseUserFieldsIfPublic(sections: Section[], at?: string): void {
  const errors = sections.flatMap((s, si) =>
    s.fields.flatMap((f, fi) =>
      f.type === 'user'
        ? [
            {
              path: at ?? `/sections/${si}/fields/${fi}/type`,
              message: `${f.name} is a user field: a publicly available form cannot have one (anonymous submitters cannot choose from the company's users)`,
            },
          ]
        : [],
    ),
  );
  if (errors.length) invalid('form', errors);
}

function newPublicId(): string {
  return randomBytes(9).toString('base64url');
}

/** A new template's columns from a checked body (defaults filled in, sections checked against the field types). */
function columnsOf(input: CheckedForm): FormColumns {
  const p = input.fields;
  const data: FormColumns = {
    name: p.name!,
    code: p.code!,
    department: p.department!,
    sections: checkSections(p.sections!) as Prisma.InputJsonValue,
    status: p.status ?? 'active',
    revision: p.revision ?? null,
    revisionDate: p.revisionDate ?? null,
    signatories: p.signatories ?? [],
    dynamicFields: p.dynamicFields ?? [],
    toolset: p.toolset ?? null,
    notification: p.notification ?? null,
    notificationRecipients: p.notificationRecipients ?? null,
    publiclyAvailable: p.publiclyAvailable ?? false,
    publicId: p.publicId ?? null,
    webhooks: mergeSecrets(p.webhooks ?? [], []),
    extra: input.extra,
  };
  if (data.publiclyAvailable && !data.publicId) data.publicId = newPublicId();
  if (data.publiclyAvailable) refuseUserFieldsIfPublic(data.sections as Section[]);
  return data;
}
