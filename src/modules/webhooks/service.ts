import { z } from 'zod';
import type { Form, FormCompletion, Prisma, WebhookDelivery } from '../../generated/prisma/client.js';
import type { ScopedCreate, ScopedPrisma } from '../../db/scoped.js';
import { afterCursor, toPage, timeCursorArg } from '../../db/keyset.js';
import { NotFoundError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { LimitParam, PAGE_DEFAULT, parseFilter } from '../../lib/params.js';
import { submissionLink } from '../completions/links.js';
import { webhooksOf } from '../forms/service.js';
import { notifyPending } from './dispatcher.js';
import type { SubmissionSummary } from '../completions/service.js';
import { E164_PATTERN } from '../settings/service.js';

/**
 * Deliveries of form submissions (docs/contract/api-v1.md §6; docs/contract/gaps.md §6, §10; docs/webhooks.md): the outbox rows written in the
 * submission's transaction, the per-form log, and re-send. Sending is the dispatcher's (dispatcher.ts): never
 * inside a request.
 */
export const CHANNELS = ['webhook', 'email', 'sms'] as const;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;

export const DeliveryFilterSchema = z
  .object({
    channel: z.enum(CHANNELS, { error: `channel must be one of ${CHANNELS.join(', ')}` }).optional(),
    completionId: z.string().min(1).max(128).optional(),
    limit: LimitParam.optional().describe('Page size, 1 to 500 (default 100)'),
    cursor: timeCursorArg('delivery').optional(),
  })
  .strict();
export type DeliveryFilter = z.input<typeof DeliveryFilterSchema>;

export interface DeliveryPage {
  data: WebhookDelivery[];
  count: number;
  nextCursor: string | null;
}

/** The contract's payload (docs/contract/api-v1.md §6). */
export interface SubmissionEvent {
  event: 'form.submitted';
  formId: string;
  formCode: string;
  formName: string;
  completionId: string;
  submittedBy: string;
  submittedAt: string;
  data: unknown;
}

export class DeliveryService {
  constructor(private readonly db: ScopedPrisma) {}

  /**
   * The outbox rows of a submission, for the caller to write with it (the same statement,
   * src/modules/completions/write.ts): one per webhook URL of the form and, when the form notifies, one per
   * recipient email and one per recipient phone (SMS).
   */
  rowsFor(
    form: Form,
    completion: Pick<FormCompletion, 'uid' | 'userId' | 'createdAt' | 'submitterName' | 'appBaseUrl'> & { data: unknown },
    summary?: SubmissionSummary,
  ): ScopedCreate<'WebhookDelivery'>[] {
    const event: SubmissionEvent = {
      event: 'form.submitted',
      formId: form.uid,
      formCode: form.code,
      formName: form.name,
      completionId: completion.uid,
      submittedBy: completion.userId,
      submittedAt: completion.createdAt.toISOString(),
      data: completion.data,
    };
    const rows: ScopedCreate<'WebhookDelivery'>[] = [];
    const add = (channel: (typeof CHANNELS)[number], target: string, payload: unknown) => {
      const uid = newUid('dl');
      rows.push({ uid, formId: form.uid, completionId: completion.uid, channel, target, messageId: uid, payload: payload as Prisma.InputJsonValue });
    };
    for (const w of webhooksOf(form)) add('webhook', w.url, event);
    if (form.notification) {
      const recipients = (Array.isArray(form.notificationRecipients) ? form.notificationRecipients : []) as { email?: unknown; phone?: unknown; name?: unknown }[];
      for (const r of recipients) {
        const personal = {
          ...event,
          recipientName: typeof r?.name === 'string' ? r.name : null,
          submitterName: completion.submitterName ?? null,
          link: completion.appBaseUrl ? submissionLink(completion.appBaseUrl, completion.uid) : null,
        };
        if (typeof r?.email === 'string') add('email', r.email, { ...personal, summary: summary ?? null });
        // a phone stored before numbers were checked is sent only when it is E.164 (the provider would refuse it)
        if (typeof r?.phone === 'string' && E164_PATTERN.test(r.phone)) add('sms', r.phone, personal);
      }
    }
    return rows;
  }

  /** Wakes this process's dispatcher after the submission committed (others find the rows when they poll). */
  committed(count: number) {
    if (count > 0) notifyPending();
  }

  async list(formId: string, filter: DeliveryFilter = {}): Promise<DeliveryPage> {
    const f = parseFilter(DeliveryFilterSchema, filter, 'invalid delivery query');
    if (!(await this.db.form.findFirst({ where: { uid: formId }, select: { uid: true } }))) throw new NotFoundError('form', formId);
    const limit = f.limit ?? PAGE_DEFAULT;
    const where: Prisma.WebhookDeliveryWhereInput = { formId };
    if (f.channel) where.channel = f.channel;
    if (f.completionId) where.completionId = f.completionId;
    if (f.cursor) Object.assign(where, afterCursor('createdAt', f.cursor, 'delivery'));
    const rows = await this.db.webhookDelivery.findMany({ where, orderBy: [{ createdAt: 'desc' }, { uid: 'desc' }], take: limit + 1 });
    return toPage(rows, limit, (r) => r.createdAt, 'delivery');
  }

  async get(uid: string): Promise<WebhookDelivery> {
    const row = await this.db.webhookDelivery.findFirst({ where: { uid } });
    if (!row) throw new NotFoundError('delivery', uid);
    return row;
  }

  /** A new attempt of the same payload to the same target; a webhook keeps its `webhook-id` (messageId). */
  async resend(uid: string): Promise<{ uid: string; status: 'pending' }> {
    const d = await this.get(uid);
    const next = newUid('dl');
    // an alert's re-send takes the place of its chain's retries: the dispatcher does not send a retry whose chain a
    // later re-send superseded (two chains would send every later attempt twice)
    await this.db.webhookDelivery.create({
      data: {
        uid: next,
        formId: d.formId,
        completionId: d.completionId,
        // an alert's re-send is a first attempt again (retried with backoff if it fails)
        alertId: d.alertId,
        channel: d.channel,
        target: d.target,
        messageId: d.messageId,
        payload: d.payload as Prisma.InputJsonValue,
        resendOf: d.uid,
      },
    });
    notifyPending();
    return { uid: next, status: 'pending' };
  }
}

/** The status a client sees: a row being sent is still pending. */
export function publicStatus(d: Pick<WebhookDelivery, 'status'>): (typeof DELIVERY_STATUSES)[number] {
  return d.status === 'sending' ? 'pending' : (d.status as (typeof DELIVERY_STATUSES)[number]);
}
