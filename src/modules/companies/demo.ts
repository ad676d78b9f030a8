import { CreateFlightLogCheck, fromFlatBody } from '../flight-logs/schema.js';
import { CreateComponentCheck } from '../components/schema.js';
import type { Database } from '../../db/database.js';
import { ApiKeyService } from '../../auth/keys.js';
import { createServices } from '../../context.js';
import { scopedPrisma, type ScopedPrisma } from '../../db/scoped.js';
import { now } from '../../lib/clock.js';
import { withUids } from '../../lib/ids.js';
import { addCalendarDays, localDate, startOfLocalDay } from '../schedule/rules.js';
import { CompleteScheduleItemCheck, CreateScheduleItemCheck } from '../schedule/schema.js';
import { CreateFormCompletionCheck } from '../completions/schema.js';
import { importData } from './import.js';
import { recomputeAircraftTotals } from '../aircraft/totals.js';

/**
 * `fleetops demo`: a demo company worth looking at (docs/api-notes.md "The demo company"): a year of flight logs up
 * to yesterday, fitted components whose counters follow them, a maintenance schedule with an overdue and a
 * due-soon item, form completions that raised a defect and an odometer reading. Every record goes through the
 * services' rules; the dates count back from the service's clock, so the demo looks right on any day. Running it
 * again starts the demo company over (its records are replaced, its API keys kept) and adds a key.
 */
export const DEMO_COMPANY = 'demo';
/** The demo's operator works in Sydney: today, overdue and due soon are Sydney's days. */
export const DEMO_TIME_ZONE = 'Australia/Sydney';

export const demoData = {
  companies: [
    {
      id: DEMO_COMPANY,
      name: 'Demo Aviation',
      users: [
        { uid: 'demo-owner', email: 'owner@demo.fleetops.test', displayName: 'Olivia Owner', firstName: 'Olivia', lastName: 'Owner', status: 'Active', roles: ['owner', 'admin'], timezone: 'Australia/Sydney' },
        { uid: 'demo-pilot', email: 'pilot@demo.fleetops.test', displayName: 'Pat Pilot', firstName: 'Pat', lastName: 'Pilot', status: 'Active', roles: ['pilot'], phone: '+61400000000', timezone: 'Australia/Sydney' },
        { uid: 'demo-driver', email: 'driver@demo.fleetops.test', displayName: 'Dana Driver', status: 'Active', roles: ['driver'] },
      ],
      aircraft: [
        {
          uid: 'demo-vh-abc', registration: 'VH-ABC', type: 'B06', category: 'rotary-wing', manufacturer: 'Bell', model: '206B',
          engineType: 'turbine', engineCount: 1, status: 'active',
          maintenanceTrackingItems: {
            hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 },
            landings: { displayText: 'Landings', type: 'number', precision: 0 },
          },
          logTrackingItems: {
            fuelUplift: { displayText: 'Fuel uplift (L)', type: 'number' },
            remarks: { displayText: 'Remarks', type: 'string' },
          },
          initialValues: { hobbs: 1200.5, landings: 3000 },
        },
        {
          uid: 'demo-vh-xyz', registration: 'VH-XYZ', type: 'C172', category: 'fixed-wing', manufacturer: 'Cessna', model: '172S',
          engineType: 'piston', engineCount: 1, status: 'active',
          maintenanceTrackingItems: {
            tacho: { displayText: 'Tacho', type: 'number', precision: 2 },
            airframeHours: { displayText: 'Airframe hours', type: 'number', precision: 1 },
          },
          logTrackingItems: {},
          initialValues: { tacho: 4321.25, airframeHours: 5102.4 },
        },
        // a glider in storage, never logged here: what the docs' example of deleting an aircraft deletes
        {
          uid: 'demo-vh-gld', registration: 'VH-GLD', type: 'AS-K 21', category: 'glider', manufacturer: 'Schleicher', model: 'ASK 21',
          engineType: 'none', engineCount: 0, status: 'stored',
          maintenanceTrackingItems: {},
          logTrackingItems: {},
        },
      ],
      vehicles: [
        { uid: 'demo-ute', make: 'Toyota', model: 'Hilux', registration: 'DEMO01', year: 2022, fuelType: 'diesel', transmissionType: 'automatic', tracking: { kilometers: true, miles: false, hours: false }, initialValues: { odometer: 48210 } },
        { uid: 'demo-fuel-truck', make: 'Isuzu', model: 'NPR', registration: 'DEMO02', fuelType: 'diesel', tracking: { kilometers: false, miles: false, hours: true }, initialValues: { hours: 3120 } },
        { uid: 'demo-trailer', make: 'Brian James', model: 'Cargo Master', registration: 'DEMO03', year: 2019, tracking: { kilometers: true, miles: false, hours: false } },
        { uid: 'demo-old-van', make: 'Toyota', model: 'HiAce', registration: 'DEMO04', year: 2011, fuelType: 'petrol', tracking: { kilometers: true, miles: false, hours: false }, initialValues: { odometer: 301455 } },
      ],
      apiKeys: [],
    },
  ],
};

/** A realistic daily vehicle inspection: checklist items with comment boxes, an odometer and a defect field. */
export const demoForm = {
  uid: 'demo-form-daily',
  name: 'Daily vehicle inspection',
  code: 'daily-vehicle-check',
  department: 'Ground operations',
  toolset: 'vehicles',
  revision: 1,
  revisionDate: '2026-11',
  signatories: ['Driver'],
  notification: true,
  notificationRecipients: [{ email: 'ops@demo.fleetops.test', name: 'Ops desk' }],
  sections: [
    {
      name: 'Vehicle',
      fields: [
        { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
        { name: 'odometer', label: 'Odometer reading', type: 'odometer', vehicleField: 'vehicle', required: true, precision: 0 },
        { name: 'fuelLevel', label: 'Fuel level', type: 'select', options: ['full', '3/4', '1/2', '1/4', 'reserve'], required: true },
      ],
    },
    {
      name: 'Walk-around checks',
      description: 'Pass, fail or n/a; add a comment for anything not a pass.',
      fields: [
        { name: 'tyres', label: 'Tyres and wheel nuts', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
        { name: 'lights', label: 'Lights and indicators', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
        { name: 'brakes', label: 'Brakes', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
        { name: 'fluids', label: 'Oil, coolant and washer fluid', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
        { name: 'mirrors', label: 'Mirrors and windscreen', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
        { name: 'firstAid', label: 'First-aid kit and extinguisher', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
      ],
    },
    {
      name: 'Defects and sign-off',
      fields: [
        { name: 'defects', label: 'Defects found', type: 'defect', assetField: 'vehicle', description: 'Each defect is added to the vehicle’s maintenance schedule' },
        { name: 'photos', label: 'Photos', type: 'photo', multiple: true },
        { name: 'fitForService', label: 'Vehicle is fit for service', type: 'boolean', required: true },
        { name: 'signature', label: 'Driver signature', type: 'signature', required: true },
      ],
    },
  ],
};

/** The demo records the API docs' examples name (each module's examples.json, gathered by src/rest/examples.ts): created with these ids, by the same rules. */
export const DEMO_IDS = {
  latestLog: 'fl_demo_latest',
  duplicateLog: 'fl_demo_duplicate',
  testLogs: ['fl_demo_test_1', 'fl_demo_test_2'],
  blade: 'cmp_demo_blade',
  engine: 'cmp_demo_engine',
  radio: 'cmp_demo_radio',
  spareBlade: 'cmp_demo_spare_blade',
  starter: 'cmp_demo_starter',
  oldBattery: 'cmp_demo_old_battery',
  hundredHourly: 'si_demo_100h',
  annual: 'si_demo_annual',
  registration: 'si_demo_rego',
  engineOverhaul: 'si_demo_overhaul',
  compressorWash: 'si_demo_wash',
  extinguishers: 'si_demo_extinguishers',
  retired: 'si_demo_retired',
  defectItem: 'si_demo_defect',
  washCompletion: 'sc_demo_wash',
  cleanCheck: 'fc_demo_clean',
  defectCheck: 'fc_demo_defect',
  cleanEmail: 'dl_demo_clean',
  defectEmail: 'dl_demo_defect',
} as const;

export interface DemoSummary {
  key: string;
  companyId: string;
  flightLogs: number;
  /** Components and vehicles not deleted, active schedule items: what the lists show. */
  components: number;
  scheduleItems: number;
  vehicles: number;
  formCompletions: number;
}

/**
 * A small deterministic generator (mulberry32), seeded per day: the same day always gets the same flights. Also the
 * generated test company's (test/generated-company.ts).
 */
export function random(seed: string): () => number {
  let a = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 2654435761) >>> 0, 1779033703);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLACES = ['YSSY', 'YSBK', 'YSCN', 'YWOL', 'YCNK', 'YBTH', 'YSHL'];
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];
/** An instant on a local date in the demo's zone: `hour` o'clock (fractional hours allowed). */
const at = (date: string, hour: number) => new Date(startOfLocalDay(date, DEMO_TIME_ZONE).getTime() + Math.round(hour * 3_600_000)).toISOString();

/** A year of flights up to yesterday (the demo's local days), ~4 a week on the Bell and ~3 on the Cessna. */
function yearOfFlights(today: string): Record<string, unknown>[] {
  const logs: Record<string, unknown>[] = [];
  for (let d = 365; d >= 1; d--) {
    const date = addCalendarDays(today, -d);
    const r = random(date);
    if (r() < 0.55) {
      const hobbs = (3 + Math.floor(r() * 16)) / 10;
      logs.push({
        timeDate: at(date, 7 + Math.floor(r() * 9) + 0.25),
        pilot: r() < 0.8 ? 'demo-pilot' : 'demo-owner',
        aircraftId: 'demo-vh-abc',
        aircraftRegistration: 'VH-ABC',
        startLocation: pick(r, PLACES),
        endLocation: pick(r, PLACES),
        pax: Math.floor(r() * 5),
        hobbs,
        landings: 1 + Math.floor(r() * 6),
        ...(r() < 0.5 ? { fuelUplift: 60 + Math.floor(r() * 140) } : {}),
        ...(r() < 0.1 ? { remarks: pick(r, ['Scenic flight', 'Powerline patrol', 'Training', 'Aerial photography']) } : {}),
      });
    }
    if (r() < 0.4) {
      const tacho = (50 + Math.floor(r() * 250)) / 100;
      logs.push({
        timeDate: at(date, 8 + Math.floor(r() * 8) + 0.5),
        pilot: 'demo-pilot',
        aircraftId: 'demo-vh-xyz',
        aircraftRegistration: 'VH-XYZ',
        startLocation: 'YSBK',
        endLocation: pick(r, PLACES),
        pax: Math.floor(r() * 4),
        tacho,
        airframeHours: Math.round(tacho * 11.5) / 10,
      });
    }
  }
  return logs;
}

/** The demo company's records (not its users, aircraft or keys) go, so a new run starts from the same place. */
async function clearDemoRecords(db: ScopedPrisma): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.webhookDelivery.deleteMany({});
    await tx.maintenanceAlert.deleteMany({});
    await tx.formCompletion.deleteMany({});
    await tx.completedScheduleItem.deleteMany({});
    await tx.scheduleItem.deleteMany({});
    await tx.component.deleteMany({});
    await tx.flightLog.deleteMany({}); // the daily roll-up follows (its triggers)
    await tx.form.deleteMany({});
    await tx.vehicle.deleteMany({});
    await tx.idempotencyKey.deleteMany({});
    // the aircraft stay: without their logs, their totals are their initial values again (the import writes an
    // aircraft only where the file changes it)
    const aircraft = await tx.aircraft.findMany({ select: { uid: true } });
    await recomputeAircraftTotals(tx, aircraft.map((a) => a.uid));
  });
}

/** Loads the demo company (as `companyId`: tests load a fresh copy, since a shared database keeps the last one's data). */
export async function loadDemo(database: Database, companyId = DEMO_COMPANY): Promise<DemoSummary> {
  const db = scopedPrisma(database.prisma, companyId);
  if (await database.prisma.company.findUnique({ where: { id: companyId } })) await clearDemoRecords(db);
  await importData(database, { companies: demoData.companies.map((c) => ({ ...c, id: companyId })) });
  const s = createServices(db, 'demo-owner');
  const ids = DEMO_IDS;
  const today = localDate(now(), DEMO_TIME_ZONE);
  const named = <T>(names: Record<string, string[]>, fn: () => Promise<T>) => withUids(names, fn);

  // components first, fitted, so their counters follow the year's flights
  const component = (uid: string, body: Record<string, unknown>) => named({ cmp: [uid] }, () => s.components.create(CreateComponentCheck.parse(body)));
  await component(ids.blade, {
    name: 'Main rotor blade', type: 'Rotor blade', partNumber: '206-010-200-133', serialNumber: 'A-1734', manufacturer: 'Bell',
    counters: [{ displayText: 'Hours', unit: 'hours' }, { displayText: 'Hours since inspection', unit: 'hours', basis: 'sinceEvent' }],
  });
  await s.components.install(ids.blade, { parentType: 'aircraft', parentUid: 'demo-vh-abc', mappings: [{ counterKey: 'hours', sourceKey: 'hobbs' }, { counterKey: 'hoursSinceInspection', sourceKey: 'hobbs' }] });
  await component(ids.engine, {
    name: 'Engine', type: 'Engine', partNumber: 'IO-360-L2A', serialNumber: 'L-32145-51A', manufacturer: 'Lycoming',
    counters: [{ displayText: 'Hours since new', unit: 'hours', initialValue: 3120.4 }, { displayText: 'Hours since overhaul', unit: 'hours', basis: 'sinceEvent', initialValue: 412.8 }],
  });
  await s.components.install(ids.engine, { parentType: 'aircraft', parentUid: 'demo-vh-xyz', mappings: [{ counterKey: 'hoursSinceNew', sourceKey: 'tacho' }, { counterKey: 'hoursSinceOverhaul', sourceKey: 'tacho' }] });
  await component(ids.radio, { name: 'VHF radio', type: 'Avionics', partNumber: 'KY-97A', serialNumber: 'KY-5521', counters: [{ displayText: 'Hours', unit: 'hours' }] });
  await s.components.install(ids.radio, { parentType: 'aircraft', parentUid: 'demo-vh-xyz', mappings: [{ counterKey: 'hours', sourceKey: 'tacho' }] });
  await component(ids.spareBlade, {
    name: 'Main rotor blade', type: 'Rotor blade', partNumber: '206-010-200-133', serialNumber: 'A-1802', manufacturer: 'Bell', location: 'Hangar 2, rack A',
    counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 152.3 }],
  });
  await component(ids.starter, { name: 'Starter generator', type: 'Electrical', partNumber: '150SG122Q', serialNumber: 'SG-0981', location: 'Hangar 2, shelf 4' });
  await component(ids.oldBattery, { name: 'Main battery', type: 'Electrical', partNumber: 'RG-35AXC', serialNumber: 'B-2210', state: 'scrapped' });
  await s.components.delete(ids.oldBattery);

  // a year of flights through the batch rule (50 a call), then the examples' own logs
  const logs = yearOfFlights(today);
  for (let i = 0; i < logs.length; i += 50) {
    const r = await s.flightLogs.batchCreate(logs.slice(i, i + 50));
    if (r.errors.length) throw new Error(`demo flight logs refused: ${JSON.stringify(r.errors[0])}`);
  }
  const yesterday = addCalendarDays(today, -1);
  const log = (uid: string, over: Record<string, unknown>) =>
    named({ fl: [uid] }, () =>
      s.flightLogs.create(
        CreateFlightLogCheck.parse(fromFlatBody({ pilot: 'demo-pilot', aircraftId: 'demo-vh-abc', aircraftRegistration: 'VH-ABC', startLocation: 'YSBK', endLocation: 'YSBK', pax: 1, ...over })),
      ),
    );
  await log(ids.latestLog, { timeDate: at(yesterday, 17.5), startLocation: 'YSBK', endLocation: 'YSCN', pax: 3, hobbs: 1.2, landings: 2, fuelUplift: 140, remarks: 'Charter' });
  await log(ids.duplicateLog, { timeDate: at(yesterday, 17.5), startLocation: 'YSBK', endLocation: 'YSCN', pax: 3, hobbs: 1.2, landings: 2, remarks: 'Entered twice by mistake' });
  await log(ids.testLogs[0], { timeDate: at(yesterday, 18), hobbs: 0.1, landings: 1, remarks: 'Test entry' });
  await log(ids.testLogs[1], { timeDate: at(yesterday, 18.1), hobbs: 0.1, landings: 1, remarks: 'Test entry' });

  // the maintenance schedule: due soon by hours, overdue and due soon by date, later, done and retired
  const hobbs = (await s.aircraft.get('demo-vh-abc')).totals as Record<string, number>;
  const tacho = (await s.aircraft.get('demo-vh-xyz')).totals as Record<string, number>;
  const item = (uid: string, body: Record<string, unknown>) => named({ si: [uid] }, () => s.schedule.create(CreateScheduleItemCheck.parse(body)));
  await item(ids.hundredHourly, {
    name: '100-hourly inspection', type: 'Inspection', relatedTo: 'demo-vh-abc', relatedToType: 'aircraft', recurring: true,
    trackingItem: 'hobbs', dueAtInterval: Math.round((hobbs.hobbs + 6.5) * 10) / 10, recurringInterval: 100,
  });
  await item(ids.annual, {
    name: 'Annual inspection', type: 'Inspection', relatedTo: 'demo-vh-xyz', relatedToType: 'aircraft', recurring: true,
    calendarDateDue: addCalendarDays(today, -3), calendarRecurring: 365, notes: 'Book the hangar slot with the maintenance organisation',
  });
  await item(ids.registration, {
    name: 'Registration renewal', type: 'Registration', relatedTo: 'demo-ute', relatedToType: 'vehicle', recurring: true,
    calendarDateDue: addCalendarDays(today, 10), calendarRecurring: 365,
  });
  await item(ids.engineOverhaul, {
    name: 'Engine overhaul', type: 'Overhaul', relatedTo: 'demo-vh-xyz', relatedToType: 'aircraft', recurring: false,
    trackingItem: 'tacho', dueAtInterval: Math.round((tacho.tacho + 1587.2) * 100) / 100,
  });
  await item(ids.compressorWash, {
    name: 'Compressor wash', type: 'Service', relatedTo: 'demo-vh-abc', relatedToType: 'aircraft', recurring: true,
    calendarDateDue: addCalendarDays(today, -20), calendarRecurring: 30,
  });
  await named({ sc: [ids.washCompletion] }, () => s.schedule.complete(ids.compressorWash, CompleteScheduleItemCheck.parse({ completedAt: addCalendarDays(today, -20), notes: 'Done after the last flight of the day' })));
  await item(ids.extinguishers, {
    name: 'Fire extinguisher check', type: 'Inspection', relatedTo: 'Hangar 2 extinguishers', relatedToType: 'equipment', recurring: true,
    calendarDateDue: addCalendarDays(today, 60), calendarRecurring: 180,
  });
  await item(ids.retired, { name: '50-hourly check (old programme)', type: 'Inspection', relatedTo: 'demo-vh-abc', relatedToType: 'aircraft', recurring: false, calendarDateDue: addCalendarDays(today, 30) });
  await s.schedule.delete(ids.retired);

  // a vehicle gone from the fleet, for the restore example
  await s.vehicles.delete('demo-old-van');

  // the daily check, twice on the ute: clean, then with a failed light that raises a defect; each records an odometer
  await s.forms.upsertTemplate(demoForm);
  const checks: Record<string, unknown> = { tyres: 'pass', lights: 'pass', brakes: 'pass', fluids: 'pass', mirrors: 'pass', firstAid: 'pass', fitForService: true, fuelLevel: 'full' };
  await named({ fc: [ids.cleanCheck], dl: [ids.cleanEmail] }, () =>
    s.completions.create(CreateFormCompletionCheck.parse({ formId: demoForm.uid, userId: 'demo-driver', submitterName: 'Dana Driver', answers: { vehicle: 'demo-ute', odometer: 48452, ...checks, signature: 'https://files.demo.fleetops.test/signatures/dana-1.png' } })),
  );
  await named({ fc: [ids.defectCheck], si: [ids.defectItem], dl: [ids.defectEmail] }, () =>
    s.completions.create(CreateFormCompletionCheck.parse({
      formId: demoForm.uid, userId: 'demo-driver', submitterName: 'Dana Driver',
      answers: {
        vehicle: 'demo-ute', odometer: 48530, ...checks, lights: 'fail', lights__comment: 'Left indicator lens cracked', fuelLevel: '3/4',
        defects: { description: 'Left indicator lens cracked', severity: 'medium' }, signature: 'https://files.demo.fleetops.test/signatures/dana-2.png',
      },
    })),
  );

  // an admin key: the demo shows everything, the company's management included (docs/contract/gaps.md §12)
  const keys = new ApiKeyService(database.prisma);
  const { key } = await keys.create({ companyId, name: 'demo', scope: 'admin' });
  // a key of an integration the company no longer uses, with an id the docs' example of revoking a key names (key
  // ids are unique across companies, so it is the company's id that makes it known); kept when the demo reloads
  const oldKey = `key_${companyId}_old_integration`;
  if (!(await db.apiKey.findFirst({ where: { id: oldKey }, select: { id: true } }))) {
    await withUids({ key: [oldKey] }, () => keys.create({ companyId, name: 'old integration', scope: 'read' }));
  }
  return {
    key,
    companyId,
    flightLogs: await db.flightLog.count(),
    // what the lists show: a deleted component or vehicle and a completed (inactive) item are there to restore
    components: await db.component.count({ where: { status: { not: 'deleted' } } }),
    scheduleItems: await db.scheduleItem.count({ where: { status: 'active' } }),
    vehicles: await db.vehicle.count({ where: { status: { not: 'deleted' } } }),
    formCompletions: await db.formCompletion.count(),
  };
}

/** Three requests that show the demo at once: what is due, hours flown per month, the latest flights. */
export function demoRequests(base: string, key: string): { what: string; curl: string }[] {
  const auth = `-H "Authorization: Bearer ${key}"`;
  const hours = JSON.stringify({ collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftRegistration', dateField: 'timeDate', dateGroup: 'month', timezone: DEMO_TIME_ZONE });
  return [
    { what: 'maintenance status: overdue first, then what is due soon', curl: `curl ${auth} ${base}/api/v1/maintenance-status` },
    { what: 'hours flown per month (hobbs) per aircraft, in Sydney months', curl: `curl ${auth} -H "Content-Type: application/json" -d '${hours}' ${base}/api/v1/aggregate` },
    { what: 'the five latest flight logs', curl: `curl ${auth} "${base}/api/v1/flight-logs?limit=5"` },
  ];
}
