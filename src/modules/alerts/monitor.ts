import type { Logger } from 'pino';
import { Prisma } from '../../generated/prisma/client.js';
import type { Database } from '../../db/database.js';
import { crossCompany, scopedPrisma } from '../../db/scoped.js';
import { createServices } from '../../context.js';
import { now } from '../../lib/clock.js';
import { notifyPending } from '../webhooks/dispatcher.js';

/**
 * When maintenance alerts are evaluated (docs/contract/gaps.md §14; docs/notifications.md): for a company, after
 * every write operation it makes (`touched`, called by the operation policy for every mutation on every channel,
 * and by public-form submissions), and for every company with alert settings in a sweep at start and every
 * SWEEP_MS (what dates alone make due: nothing is written when a calendar day passes; it also catches a write whose
 * process stopped before it evaluated). Evaluations of one company never overlap in a process: a write during one
 * asks for another after it. Across processes they may: AlertService.evaluate is exactly-once by the database.
 */
export const SWEEP_MS = 15 * 60_000;

/**
 * Evaluates a company's maintenance alerts now and wakes this process's delivery dispatcher for what it raised: what
 * the monitor runs after a write, and what a write outside any operation runs itself (`fleetops import` and
 * `import-logs`, in the server's process or their own: the servers' dispatchers send the outbox rows it writes).
 */
export async function evaluateCompany(database: Database, companyId: string): Promise<{ raised: number; deliveries: number }> {
  const r = await createServices(scopedPrisma(database.prisma, companyId)).alerts.evaluate(now());
  if (r.deliveries) notifyPending();
  return r;
}

export interface AlertMonitorOptions {
  database: Database;
  logger: Logger;
  sweepMs?: number;
  /** Sweep at start (default true). */
  sweepAtStart?: boolean;
}

export function createAlertMonitor(opts: AlertMonitorOptions) {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let sweeping: Promise<void> | null = null;
  let stopped = false;

  async function evaluate(companyId: string): Promise<void> {
    const r = await evaluateCompany(opts.database, companyId);
    if (r.raised) opts.logger.info({ companyId, raised: r.raised, deliveries: r.deliveries }, 'maintenance alerts raised');
  }

  /** Evaluates the company soon (coalesced: one evaluation at a time per company, one more if asked meanwhile). */
  function touched(companyId: string): void {
    if (stopped) return;
    if (running.has(companyId)) {
      again.add(companyId);
      return;
    }
    const run = (async () => {
      do {
        again.delete(companyId);
        try {
          await evaluate(companyId);
        } catch (e) {
          if (!stopped) opts.logger.error({ err: e, companyId }, 'evaluating maintenance alerts failed');
        }
      } while (again.has(companyId) && !stopped);
    })().finally(() => running.delete(companyId));
    running.set(companyId, run);
  }

  /** Every company that saved alert settings, one after the other. */
  async function sweep(): Promise<void> {
    if (sweeping) return sweeping;
    sweeping = (async () => {
      try {
        const rows = await crossCompany(opts.database.prisma, 'alert sweep').companySettings.findMany({
          where: { alerts: { not: Prisma.DbNull } },
          select: { companyId: true },
          orderBy: { companyId: 'asc' },
        });
        for (const r of rows) {
          if (stopped) return;
          touched(r.companyId);
          await running.get(r.companyId);
        }
      } catch (e) {
        if (!stopped) opts.logger.error({ err: e }, 'the maintenance alert sweep failed');
      }
    })().finally(() => {
      sweeping = null;
    });
    return sweeping;
  }

  const timer = setInterval(() => void sweep(), opts.sweepMs ?? SWEEP_MS);
  timer.unref();
  if (opts.sweepAtStart !== false) void sweep();

  return {
    touched,
    sweep,
    /** Resolves when no evaluation runs (tests; shutdown). */
    async idle(): Promise<void> {
      while (sweeping || running.size) {
        await sweeping;
        await Promise.all([...running.values()]);
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await Promise.all([sweeping, ...running.values()]);
    },
  };
}
export type AlertMonitor = ReturnType<typeof createAlertMonitor>;
