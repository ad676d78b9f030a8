import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { crossCompany, scopedPrisma } from '../../db/scoped.js';
import { smsProviderOf } from '../settings/service.js';
import { alertEmail, alertSms } from '../alerts/messages.js';
import { ALERT_BACKOFF_MINUTES, ALERT_MAX_ATTEMPTS, alertSettingsOf, assetDeleted, cycleOf, endpointOf } from '../alerts/stored.js';
import { targetKey } from '../../lib/text.js';
import { now } from '../../lib/clock.js';
import { newUid } from '../../lib/ids.js';
import { clipText } from '../../lib/text.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { createSender, notificationEmail, notificationSms, type AttemptResult, type SenderOptions } from './send.js';

/**
 * The delivery dispatcher (docs/contract/gaps.md §6, §10; docs/webhooks.md): sends pending outbox rows after their submission
 * committed, never inside a request. Rows are claimed with `FOR UPDATE SKIP LOCKED` (status `sending`), so with
 * several server processes on one PostgreSQL each row is sent by exactly one of them; each claimed row gets one
 * attempt and its outcome (delivered, failed, skipped) is recorded. A submission's delivery is not retried
 * (docs/contract/api-v1.md §6); a maintenance alert's failed attempt is followed, in the same transaction, by a new
 * row for the next attempt, not sent before its backoff has passed (gaps §14: 1, 5, 15, 30, 60 minutes, by the
 * service's clock), with the same `webhook-id`.
 * A row whose process died before recording its outcome is claimed again, so a crash between commit and send still
 * delivers (and a delivery in flight at the crash may arrive twice, with the same `webhook-id`):
 * - on PostgreSQL, as soon as the process is gone: the claim also takes a session-level advisory lock on the row
 *   (on the process's own connection, `Database.session`), held until its outcome is recorded; PostgreSQL releases
 *   it when the process dies, and a `sending` row whose lock nobody holds is claimed again by the next poll of any
 *   dispatcher. No lease, so a slow but living process never has its rows taken from it (docs/scaling.md);
 * - on the embedded database (one process), after CLAIM_LEASE.
 * This process's submissions wake it at once; it also polls for the others'.
 */
const events = new EventEmitter();
events.setMaxListeners(0);

/** A submission or re-send committed pending rows: wake the dispatchers of this process. */
export function notifyPending() {
  events.emit('pending');
}

export interface DispatcherOptions extends SenderOptions {
  database: Database;
  logger: Logger;
  pollMs?: number;
  /** Rows claimed per round. */
  batch?: number;
  /** Called with each attempt's outcome (metrics). */
  onOutcome?: (channel: string, status: string) => void;
}

interface ClaimedRow {
  companyId: string;
  uid: string;
  formId: string | null;
  alertId: string | null;
  attempt: number;
  /** the delivery this one follows (a retry's failed attempt, a re-send's original) */
  resendOf: string | null;
  channel: string;
  target: string;
  messageId: string;
  payload: Record<string, unknown>;
  /** PostgreSQL: the row's advisory lock key, whether this claim got it, and the session generation it was taken on. */
  lockKey?: number;
  locked?: boolean;
  generation?: number;
}

const CLAIM_LEASE_MS = 5 * 60_000;

/** The first key of the dispatcher's advisory locks (`pg_try_advisory_lock(DELIVERY_LOCK, row)`): "fodl". */
export const DELIVERY_LOCK = 0x666f646c;
/** The second key: 32 bits of the row's md5, as SQL computes it (a collision only makes a row look alive longer). */
const ROW_LOCK_KEY = `('x' || substr(md5(d."companyId" || '/' || d.uid), 1, 8))::bit(32)::int`;

/** How many times an outcome is written before the row is given up to be sent again (about 3 s of pauses). */
const RECORD_TRIES = 5;

export function createDispatcher(opts: DispatcherOptions) {
  const sender = createSender(opts);
  const prisma = opts.database.prisma;
  const batch = opts.batch ?? 20;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const inFlight = new Set<Promise<unknown>>();

  const session = opts.database.session;

  async function claim(): Promise<ClaimedRow[]> {
    if (session) {
      // Claimed with the row lock (SKIP LOCKED: each row by one dispatcher) and, in the same statement, an advisory
      // lock on the row for as long as this process works on it: a `sending` row without one was left by a process
      // that died. The lock is taken before the claim commits, so no dispatcher ever sees `sending` without it. Like
      // the Prisma claim below, the one statement here that crosses companies ('delivery outbox', src/db/scoped.ts).
      const rows = await session.query<ClaimedRow>(
        `UPDATE "WebhookDelivery" d SET status = 'sending', "claimedAt" = now()
         FROM (SELECT "companyId", uid FROM "WebhookDelivery" d
               WHERE (status = 'pending' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= $3::timestamptz))
                  OR (status = 'sending' AND NOT EXISTS (
                        SELECT 1 FROM pg_locks l
                        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                          AND l.classid = $1::int::oid AND l.objid = (${ROW_LOCK_KEY})::oid))
               ORDER BY "createdAt", uid LIMIT $2::int FOR UPDATE SKIP LOCKED) c
         WHERE d."companyId" = c."companyId" AND d.uid = c.uid
         RETURNING d."companyId", d.uid, d."formId", d."alertId", d.attempt, d.channel, d.target, d."messageId", d.payload, d."resendOf",
                   pg_try_advisory_lock($1::int, ${ROW_LOCK_KEY}) AS locked, ${ROW_LOCK_KEY} AS "lockKey"`,
        [DELIVERY_LOCK, batch, now()],
      );
      // the connection the locks were taken on (the query opens one when there is none)
      for (const r of rows) r.generation = session.generation;
      // A row whose lock another session holds is not sent: that session is a process that died in the middle of its
      // own claim of the row (its transaction rolled back, its session lock not yet released) or, rarely, a
      // collision of keys. It stays `sending`: once that lock goes, the row is abandoned to every dispatcher and the
      // next poll claims it. (Setting it back to `pending` here raced with that: another dispatcher could claim it
      // in between, and the reset undid its claim, so the row was sent twice.)
      return rows.filter((r) => r.locked);
    }
    const lease = Math.max(CLAIM_LEASE_MS, 3 * opts.timeoutMs);
    // the outbox is one queue for every company of the database: the claim is the one statement here that is not
    // company-scoped (each claimed row is then read and recorded through its company's scoped client)
    return crossCompany(prisma, 'delivery outbox').$queryRaw<ClaimedRow[]>`
      UPDATE "WebhookDelivery" d SET status = 'sending', "claimedAt" = now()
      FROM (SELECT "companyId", uid FROM "WebhookDelivery"
            WHERE (status = 'pending' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${now()}::timestamptz))
               OR (status = 'sending' AND "claimedAt" < now() - (${lease}::int * interval '1 millisecond'))
            ORDER BY "createdAt", uid LIMIT ${batch}::int FOR UPDATE SKIP LOCKED) c
      WHERE d."companyId" = c."companyId" AND d.uid = c.uid
      RETURNING d."companyId", d.uid, d."formId", d."alertId", d.attempt, d.channel, d.target, d."messageId", d.payload, d."resendOf"`;
  }

  /**
   * The webhook a delivery goes to, as its form (or the alert settings) lists it now: a webhook is known by its URL
   * (a form lists each once), and its secret is the one it has when the attempt is made (a rotated secret signs the
   * next resend). Null when the URL is no longer listed: the attempt is not made (it would go unsigned, to a receiver
   * the owner took off).
   */
  async function webhookOf(row: ClaimedRow): Promise<{ secret?: string } | null> {
    if (row.alertId) {
      const endpoint = endpointOf(row.target);
      return (await alertSettingsOf(scopedPrisma(prisma, row.companyId)))?.recipients.find((r) => r.url !== undefined && endpointOf(r.url) === endpoint) ?? null;
    }
    if (!row.formId) return null;
    const form = await scopedPrisma(prisma, row.companyId).form.findFirst({ where: { uid: row.formId }, select: { webhooks: true } });
    const hooks = form?.webhooks as { url: string; secret?: string | null }[] | undefined;
    const hook = Array.isArray(hooks) ? hooks.find((w) => endpointOf(w.url) === endpointOf(row.target)) : undefined;
    return hook ? { secret: hook.secret ?? undefined } : null;
  }
  /**
   * An alert's email or SMS goes only to a recipient the alert settings still list, as its webhook does: a retry (or
   * a re-send) to an address the owner took off is not sent.
   */
  async function alertRecipientListed(row: ClaimedRow): Promise<boolean> {
    return listedAmong(row, (await alertSettingsOf(scopedPrisma(prisma, row.companyId)))?.recipients ?? []);
  }
  /** Whether an email or SMS row's target is one of `recipients` (targetKey: an email in any case, a phone as written). */
  function listedAmong(row: ClaimedRow, recipients: readonly { email?: unknown; phone?: unknown }[]): boolean {
    const email = row.channel === 'email';
    const key = email ? targetKey.email(row.target) : targetKey.phone(row.target);
    return recipients.some((r) => {
      const v = email ? r?.email : r?.phone;
      return typeof v === 'string' && (email ? targetKey.email(v) : targetKey.phone(v)) === key;
    });
  }
  const unlistedRecipient: AttemptResult = { status: 'skipped', durationMs: 0, error: 'not sent: the alert settings no longer have this recipient' };

  /**
   * A form's email or SMS goes only to a recipient the form still notifies (`notification` on, the address or phone
   * listed), as its webhook goes only to a URL it lists: a re-send (or an attempt made after the form changed) does not
   * carry a submission's answers to someone the owner took off.
   */
  async function formRecipientListed(row: ClaimedRow): Promise<boolean> {
    if (!row.formId) return false;
    const form = await scopedPrisma(prisma, row.companyId).form.findFirst({ where: { uid: row.formId }, select: { notification: true, notificationRecipients: true } });
    if (!form?.notification || !Array.isArray(form.notificationRecipients)) return false;
    return listedAmong(row, form.notificationRecipients as { email?: unknown; phone?: unknown }[]);
  }
  const unlistedFormRecipient: AttemptResult = { status: 'skipped', durationMs: 0, error: 'not sent: the form no longer notifies this recipient' };

  /**
   * Why an alert's attempt is not to be made, decided when it is due (so an attempt that was in flight when things
   * changed, and the retries it leaves, are covered too): its item was completed, deleted or its due point moved
   * since the alert was raised (the alert would tell of a due point the item no longer has: "overdue" after the
   * work was done), or its asset (a vehicle or component) was deleted (out of service); a due-soon alert, once the
   * same due point has raised its overdue alert (the due-soon figures would be read after, and over, the overdue
   * one); or, for a retry, a re-send made after this chain's last attempt has taken its place (two chains
   * would send every later attempt twice). Null: the attempt is made.
   */
  async function staleAlert(row: ClaimedRow): Promise<string | null> {
    const db = scopedPrisma(prisma, row.companyId);
    const alert = await db.maintenanceAlert.findFirst({ where: { uid: row.alertId! }, select: { scheduleItemId: true, cycle: true, event: true } });
    if (!alert) return null;
    const item = await db.scheduleItem.findFirst({
      where: { uid: alert.scheduleItemId },
      select: { status: true, dueAtInterval: true, calendarDateDue: true, relatedTo: true, relatedToType: true },
    });
    const cycle = item && cycleOf({ dueAtInterval: item.dueAtInterval === null ? null : Number(item.dueAtInterval), calendarDateDue: item.calendarDateDue });
    if (!item || item.status !== 'active' || cycle !== alert.cycle) return 'not sent: the schedule item was completed, changed or deleted since the alert';
    if (await assetDeleted(db, item.relatedToType, item.relatedTo)) return `not sent: the ${item.relatedToType} was deleted since the alert`;
    if (alert.event === 'maintenance.due_soon') {
      // the same due point has since been reached: "remaining 9" would be read after "overdue", and last
      const overdue = await db.maintenanceAlert.findFirst({ where: { scheduleItemId: alert.scheduleItemId, event: 'maintenance.overdue', cycle: alert.cycle }, select: { uid: true } });
      if (overdue) return `not sent: the item has since become due or overdue (alert ${overdue.uid})`;
    }
    if (row.attempt > 1) {
      const previous = await db.webhookDelivery.findFirst({ where: { uid: row.resendOf ?? '' }, select: { createdAt: true } });
      const later = previous
        ? await db.webhookDelivery.findFirst({
            where: { alertId: row.alertId, channel: row.channel, target: row.target, attempt: 1, resendOf: { not: null }, createdAt: { gt: previous.createdAt } },
            select: { uid: true },
          })
        : null;
      if (later) return `not sent: superseded by the re-send ${later.uid}`;
    }
    return null;
  }
  const unlisted = (alert: boolean): AttemptResult => ({
    status: 'skipped',
    durationMs: 0,
    error: alert ? 'not sent: the alert settings no longer have a webhook to this URL' : 'not sent: the form no longer has a webhook to this URL',
  });

  /**
   * Records an attempt's outcome (and, for a failed alert delivery, its next attempt). The message was sent: a
   * transient database error here (a busy pool, a dropped connection) is retried while this process still holds the
   * row, since a row left `sending` is claimed and sent again by the next dispatcher (the receiver would get it twice).
   */
  async function recordOutcome(row: ClaimedRow, result: AttemptResult): Promise<void> {
    // the next attempt's uid is chosen once: a try that committed but lost its answer is found by it (P2002)
    const next = newUid('dl');
    for (let tries = 1; ; tries++) {
      try {
        await recordOnce(row, result, next);
        return;
      } catch (e) {
        if (tries > 1 && (e as { code?: unknown }).code === 'P2002') return;
        if (tries >= RECORD_TRIES) throw e;
        opts.logger.warn({ err: e, delivery: row.uid, tries }, 'recording a delivery outcome failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** tries));
      }
    }
  }

  async function recordOnce(row: ClaimedRow, result: AttemptResult, next: string): Promise<void> {
    const db = scopedPrisma(prisma, row.companyId);
    const outcome = { status: result.status, statusCode: result.statusCode ?? null, durationMs: result.durationMs, error: result.error === undefined ? null : clipText(result.error, 1000, ''), attemptedAt: new Date() };
    const recorded = (tx: typeof db = db) => tx.webhookDelivery.updateMany({ where: { uid: row.uid }, data: outcome });
    const retry = row.alertId !== null && result.status === 'failed' && row.attempt < ALERT_MAX_ATTEMPTS;
    if (retry) {
      const at = new Date(now().getTime() + ALERT_BACKOFF_MINUTES[row.attempt - 1] * 60_000);
      await db.$transaction(async (tx) => {
        await recorded(tx);
        await tx.webhookDelivery.create({
          data: { uid: next, alertId: row.alertId, channel: row.channel, target: row.target, messageId: row.messageId, payload: row.payload as Prisma.InputJsonValue, resendOf: row.uid, attempt: row.attempt + 1, nextAttemptAt: at },
        });
      });
    } else {
      await recorded();
    }
  }

  async function attempt(row: ClaimedRow): Promise<void> {
    let result: AttemptResult;
    try {
      const alert = row.alertId !== null;
      const stale = alert ? await staleAlert(row) : null;
      if (stale) {
        result = { status: 'skipped', durationMs: 0, error: stale };
      } else if (alert && row.channel !== 'webhook' && !(await alertRecipientListed(row))) {
        result = unlistedRecipient;
      } else if (!alert && row.channel !== 'webhook' && !(await formRecipientListed(row))) {
        result = unlistedFormRecipient;
      } else if (row.channel === 'email') {
        result = await sender.email(row.target, alert ? alertEmail(row.payload) : notificationEmail(row.payload));
      } else if (row.channel === 'sms') {
        result = await sender.sms(await smsProviderOf(scopedPrisma(prisma, row.companyId)), row.target, alert ? alertSms(row.payload) : notificationSms(row.payload));
      } else {
        const hook = await webhookOf(row);
        if (!hook) result = unlisted(alert);
        else if (alert) result = await sender.webhook(row.target, row.messageId, row.payload, hook.secret);
        else {
          const { recipientName: _r, submitterName: _s, link: _l, summary: _m, ...payload } = row.payload;
          result = await sender.webhook(row.target, row.messageId, payload, hook.secret);
        }
      }
    } catch (e) {
      result = { status: 'failed', durationMs: 0, error: (e as Error).message };
    }
    try {
      await recordOutcome(row, result);
    } finally {
      // recorded (committed): the row is no longer anyone's to re-claim, so its lock goes (unless the connection it
      // was taken on is gone, and the lock with it). Not recorded (the database failed): the lock goes too, so the
      // row, still `sending`, is claimed and sent again rather than held by this process for good
      if (session && row.lockKey !== undefined && row.generation === session.generation) {
        await session.query('SELECT pg_advisory_unlock($1::int, $2::int)', [DELIVERY_LOCK, row.lockKey]).catch(() => {});
      }
    }
    opts.onOutcome?.(row.channel, result.status);
    opts.logger.info({ delivery: row.uid, channel: row.channel, status: result.status, statusCode: result.statusCode, ms: result.durationMs }, 'delivery');
  }

  /** Claims and sends until nothing is pending; each row's attempt runs on its own (a slow receiver holds up no other). */
  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        let rows: ClaimedRow[];
        try {
          rows = await claim();
        } catch (e) {
          if (!stopped) opts.logger.error({ err: e }, 'claiming deliveries failed');
          return;
        }
        for (const row of rows) {
          const p = attempt(row).catch((e) => opts.logger.error({ err: e, delivery: row.uid }, 'recording a delivery failed'));
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
        }
        if (rows.length < batch) break;
      }
    } while (again && !stopped);
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => {
      running = null;
    });
  }

  events.on('pending', wake);
  const timer = setInterval(wake, opts.pollMs ?? 1000);
  timer.unref();
  wake();

  /**
   * Resolves when nothing is being claimed or sent. Looped: a claim in flight starts attempts when it returns, after
   * a wait on what was running when it began (a stop that waited only for that left the rows a claim had just taken
   * `sending`, sent later a second time).
   */
  async function idle(): Promise<void> {
    while (running || inFlight.size) {
      await running;
      await Promise.all([...inFlight]);
    }
  }

  return {
    wake,
    /** Resolves when nothing is being claimed or sent (tests; shutdown). */
    idle,
    /** Stops claiming; waits up to `timeoutMs` for the claim in flight and every attempt it started to be recorded. */
    async stop(timeoutMs = opts.timeoutMs + 1000): Promise<void> {
      stopped = true;
      clearInterval(timer);
      events.off('pending', wake);
      await Promise.race([idle(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
      sender.close();
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
