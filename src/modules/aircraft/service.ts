import type DataLoader from 'dataloader';
import { uidLoader } from '../../db/loaders.js';
import { z } from 'zod';
import { lockRows } from '../../db/locks.js';
import { pageArgs, readPage, type Page, type PageArgs } from '../../db/keyset.js';
import { retrying } from '../../db/retry.js';
import type { Aircraft } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { NotFoundError, ValidationError, fieldErrorsFromZod } from '../../errors.js';
import { recomputeAircraftTotals } from './totals.js';
import { NumberMapSchema, TrackingMapSchema, asNumberMap, asTrackingMap } from '../tracking/schema.js';

export type { Aircraft };

/** Aircraft as an import file or the demo describes it (docs/contract/api-v1.md §2.2; aircraft are read-only over the API). */
export const AircraftInputSchema = z
  .object({
    uid: z.string().min(1).max(128),
    registration: z.string().min(1).max(32),
    type: z.string().min(1),
    category: z.string().min(1),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
    engineType: z.string().min(1),
    engineCount: z.number().int().min(0).max(64),
    status: z.string().min(1).default('active'),
    maintenanceTrackingItems: TrackingMapSchema.default({}),
    logTrackingItems: TrackingMapSchema.default({}),
    initialValues: NumberMapSchema.default({}),
  })
  .strict()
  .superRefine((a, ctx) => {
    for (const key of Object.keys(a.logTrackingItems)) {
      if (key in a.maintenanceTrackingItems) {
        ctx.addIssue({
          code: 'custom',
          path: ['logTrackingItems', key],
          message: `${key} is already a maintenance tracking item`,
        });
      }
    }
    for (const key of Object.keys(a.initialValues)) {
      const item = a.maintenanceTrackingItems[key];
      if (!item) {
        ctx.addIssue({ code: 'custom', path: ['initialValues', key], message: `${key} is not a maintenance tracking item` });
      } else if (item.type !== 'number') {
        ctx.addIssue({ code: 'custom', path: ['initialValues', key], message: `${key} is not a number item` });
      }
    }
  });
export type AircraftInput = z.input<typeof AircraftInputSchema>;

/** The order of the aircraft list; its cursor continues it. */
const AIRCRAFT_ORDER = ['registration', 'uid'];
/** The aircraft list's arguments: a page (gaps.md §17). */
export const AircraftListArgsSchema = z.object(pageArgs(AIRCRAFT_ORDER)).strict();

export function createAircraftLoader(db: ScopedPrisma) {
  return uidLoader((args) => db.aircraft.findMany(args));
}

/** Totals at rest hold exactly initialValues + the sum over live flight logs; every maintenance key is present. */
export function totalsOf(a: Pick<Aircraft, 'totals' | 'maintenanceTrackingItems' | 'initialValues'>) {
  const totals = asNumberMap(a.totals);
  const initial = asNumberMap(a.initialValues);
  const out: Record<string, number> = {};
  for (const [key, item] of Object.entries(asTrackingMap(a.maintenanceTrackingItems))) {
    if (item.type === 'number') out[key] = totals[key] ?? initial[key] ?? 0;
  }
  return out;
}


export class AircraftService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, Aircraft | null>,
  ) {}

  /** A page of aircraft by registration, then uid (docs/api-notes.md, lists). */
  async list(page: PageArgs = {}): Promise<Page<Aircraft>> {
    const out = await readPage(page, AIRCRAFT_ORDER, 'aircraft', {}, (q) => this.db.aircraft.findMany(q));
    for (const r of out.data) this.loader.prime(r.uid, r);
    return out;
  }

  /** The aircraft, or 404 (an aircraft of another company is not found). */
  async get(uid: string): Promise<Aircraft> {
    const row = await this.loader.load(uid);
    if (!row) throw new NotFoundError('aircraft', uid);
    return row;
  }

  find(uid: string): Promise<Aircraft | null> {
    return this.loader.load(uid);
  }

  /**
   * Creates or updates an aircraft by uid (import, demo). Totals are recomputed from initial values and logs.
   * `input` is an AircraftInput, or an import file's entry as it came: checked here, as a request body is.
   */
  async upsert(input: unknown, pathPrefix = ''): Promise<'created' | 'updated'> {
    const parsed = AircraftInputSchema.safeParse(input);
    if (!parsed.success) {
      throw new ValidationError('invalid aircraft', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    }
    const a = parsed.data;
    const data = {
      registration: a.registration,
      type: a.type,
      category: a.category,
      manufacturer: a.manufacturer ?? null,
      model: a.model ?? null,
      engineType: a.engineType,
      engineCount: a.engineCount,
      status: a.status,
      maintenanceTrackingItems: a.maintenanceTrackingItems,
      logTrackingItems: a.logTrackingItems,
      initialValues: a.initialValues,
    };
    // Recomputing from scratch is exact only under the aircraft's lock, in one transaction with the change: a log
    // written meanwhile would otherwise add its difference to totals that the recompute then overwrites without it.
    const existing = await retrying(() =>
      this.db.$transaction(async (tx) => {
        const found = (await lockRows(tx, 'Aircraft', [a.uid])).size > 0;
        if (found) await tx.aircraft.updateMany({ where: { uid: a.uid }, data });
        else await tx.aircraft.create({ data: { uid: a.uid, ...data } });
        await recomputeAircraftTotals(tx, [a.uid]);
        return found;
      }),
    );
    this.loader.clear(a.uid);
    return existing ? 'updated' : 'created';
  }
}
