import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { crossCompany, scopedPrisma } from '../../db/scoped.js';
import { smsProviderOf } from '../settings/service.js';
import { createSender, notificationEmail, notificationSms, type AttemptResult, type SenderOptions } from './send.js';

/**
 * The delivery dispatcher (docs/contract/gaps.md §6, §10; docs/webhooks.md): sends pending outbox rows after their submission
 * committed, never inside a request. Rows are claimed with `FOR UPDATE SKIP LOCKED` (status `sending`), so with
 * several server processes on one PostgreSQL each row is sent by exactly one of them; each claimed row gets one
 * attempt and its outcome (delivered, failed, skipped) is recorded: no automatic retry (docs/contract/api-v1.md §6). A row claimed
 * by a process that died before recording an outcome is claimed again after CLAIM_LEASE (so a crash between
 * commit and send still delivers). This process's submissions wake it at once; it also polls for the others'.
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
  formId: string;
  channel: string;
  target: string;
  messageId: string;
  payload: Record<string, unknown>;
}

const CLAIM_LEASE_MS = 5 * 60_000;

export function createDispatcher(opts: DispatcherOptions) {
  const sender = createSender(opts);
  const prisma = opts.database.prisma;
  const batch = opts.batch ?? 20;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const inFlight = new Set<Promise<unknown>>();

  async function claim(): Promise<ClaimedRow[]> {
    const lease = Math.max(CLAIM_LEASE_MS, 3 * opts.timeoutMs);
    // the outbox is one queue for every company of the database: the claim is the one statement here that is not
    // company-scoped (each claimed row is then read and recorded through its company's scoped client)
    return crossCompany(prisma, 'delivery outbox').$queryRaw<ClaimedRow[]>`
      UPDATE "WebhookDelivery" d SET status = 'sending', "claimedAt" = now()
      FROM (SELECT "companyId", uid FROM "WebhookDelivery"
            WHERE status = 'pending' OR (status = 'sending' AND "claimedAt" < now() - (${lease}::int * interval '1 millisecond'))
            ORDER BY "createdAt", uid LIMIT ${batch}::int FOR UPDATE SKIP LOCKED) c
      WHERE d."companyId" = c."companyId" AND d.uid = c.uid
      RETURNING d."companyId", d.uid, d."formId", d.channel, d.target, d."messageId", d.payload`;
  }

  async function secretFor(row: ClaimedRow): Promise<string | undefined> {
    const form = await scopedPrisma(prisma, row.companyId).form.findFirst({ where: { uid: row.formId }, select: { webhooks: true } });
    const hooks = form?.webhooks as { url: string; secret?: string }[] | undefined;
    return Array.isArray(hooks) ? hooks.find((w) => w.url === row.target)?.secret : undefined;
  }

  async function attempt(row: ClaimedRow): Promise<void> {
    let result: AttemptResult;
    try {
      if (row.channel === 'email') {
        result = await sender.email(row.target, notificationEmail(row.payload));
      } else if (row.channel === 'sms') {
        result = await sender.sms(await smsProviderOf(scopedPrisma(prisma, row.companyId)), row.target, notificationSms(row.payload));
      } else {
        const { recipientName: _r, submitterName: _s, link: _l, summary: _m, ...payload } = row.payload;
        result = await sender.webhook(row.target, row.messageId, payload, await secretFor(row));
      }
    } catch (e) {
      result = { status: 'failed', durationMs: 0, error: (e as Error).message };
    }
    await scopedPrisma(prisma, row.companyId).webhookDelivery.updateMany({
      where: { uid: row.uid },
      data: { status: result.status, statusCode: result.statusCode ?? null, durationMs: result.durationMs, error: result.error?.slice(0, 1000) ?? null, attemptedAt: new Date() },
    });
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

  return {
    wake,
    /** Resolves when nothing is being claimed or sent (tests; shutdown). */
    async idle(): Promise<void> {
      while (running || inFlight.size) {
        await running;
        await Promise.all([...inFlight]);
      }
    },
    /** Stops claiming; waits up to `timeoutMs` for attempts in flight to be recorded. */
    async stop(timeoutMs = opts.timeoutMs + 1000): Promise<void> {
      stopped = true;
      clearInterval(timer);
      events.off('pending', wake);
      await Promise.race([Promise.all([running, ...inFlight]), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
      sender.close();
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
