import { randomBytes } from 'node:crypto';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { random } from '../src/modules/companies/demo.js';
import { importData } from '../src/modules/companies/import.js';
import { createServices } from '../src/context.js';
import { scopedPrisma } from '../src/db/scoped.js';

/**
 * A generated company with something in every table, written through the public REST API so every derived figure
 * (aircraft totals, the flight-log rollup, component counters, vehicle odometers, defects on the schedule,
 * deliveries in the outbox) is what the service itself computed: flight logs over a year across three aircraft
 * (created in batches, a few edited and deleted), components fitted three levels deep with a counter reset,
 * schedule items by hours and by date with completions, forms with webhooks and notification emails, completions
 * raising odometers and defects, maintenance alerts with their deliveries, Idempotency-Key records, a read-only key. Deterministic for a given `logs`.
 * Used by the backup tests and bench/backup.ts.
 */
export interface GeneratedCompany {
  id: string;
  /** A read_write key of the company. */
  key: string;
  aircraft: string[];
  vehicles: string[];
  components: string[];
  scheduleItems: string[];
  forms: string[];
  logs: number;
}

const API = '/api/v1';

export async function generateCompany(
  app: App,
  database: Database,
  opts: { id?: string; logs: number; onProgress?: (done: number, total: number) => void },
): Promise<GeneratedCompany> {
  const id = opts.id ?? `gen-${randomBytes(4).toString('hex')}`;
  const key = 'fo_test_' + randomBytes(16).toString('hex');
  const readKey = 'fo_test_' + randomBytes(16).toString('hex');
  const rnd = random(`generated-${opts.logs}`);
  const p = id.slice(0, 12);
  await importData(database, {
    companies: [
      {
        id,
        name: `Generated ${id}`,
        users: [
          { uid: `${p}-owner`, email: `owner@${p}.test`, displayName: 'Olive Owner', status: 'Active', roles: ['owner', 'admin'], timezone: 'Australia/Sydney' },
          { uid: `${p}-pilot`, email: `pilot@${p}.test`, displayName: 'Percy Pilot', status: 'Active', roles: ['pilot'], timezone: 'Australia/Perth' },
          { uid: `${p}-driver`, email: `driver@${p}.test`, displayName: 'Dee Driver', status: 'Active', roles: ['driver'] },
        ],
        aircraft: [
          {
            uid: `${p}-heli`, registration: `VH-${p.slice(-3).toUpperCase()}H`, type: 'AS50', category: 'rotary-wing', engineType: 'turbine', engineCount: 1, status: 'active',
            maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number', precision: 0 }, cycles: { displayText: 'Engine cycles', type: 'number', precision: 0 } },
            logTrackingItems: { fuelUplift: { displayText: 'Fuel uplift', type: 'number' }, remarks: { displayText: 'Remarks', type: 'string' } },
            initialValues: { hobbs: 4321.7, landings: 10210, cycles: 5120 },
          },
          {
            uid: `${p}-plane`, registration: `VH-${p.slice(-3).toUpperCase()}P`, type: 'C208', category: 'fixed-wing', engineType: 'turbine', engineCount: 1, status: 'active',
            maintenanceTrackingItems: { tacho: { displayText: 'Tacho', type: 'number', precision: 2 }, airframeHours: { displayText: 'Airframe hours', type: 'number', precision: 1 } },
            logTrackingItems: {},
            initialValues: { tacho: 812.25, airframeHours: 9000.4 },
          },
          {
            uid: `${p}-drone`, registration: `DR-${p.slice(-3).toUpperCase()}`, type: 'M300', category: 'drone', engineType: 'electric', engineCount: 4, status: 'active',
            maintenanceTrackingItems: { flightTime: { displayText: 'Flight time', type: 'number', precision: 2 } },
            logTrackingItems: { battery: { displayText: 'Battery', type: 'string' } },
          },
        ],
        vehicles: [
          { uid: `${p}-ute`, make: 'Toyota', model: 'Hilux', registration: `${p.slice(-4).toUpperCase()}1`, tracking: { kilometers: true, miles: false, hours: false }, initialValues: { odometer: 48210 } },
          { uid: `${p}-tug`, make: 'Lektro', model: 'AP8850', registration: `${p.slice(-4).toUpperCase()}2`, tracking: { kilometers: false, miles: false, hours: true } },
        ],
        apiKeys: [{ name: 'generated', key }, { name: 'generated read-only', key: readKey }],
      },
    ],
  });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.fetch(
      new Request(`http://fleetops.test${API}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  const heli = `${p}-heli`;
  const plane = `${p}-plane`;
  const drone = `${p}-drone`;
  const ute = `${p}-ute`;

  // components: an engine on the helicopter, a module on the engine, a blade set on the module, a battery in stores,
  // a tow hitch on the ute
  const component = async (body: Record<string, unknown>) => (await call('POST', '/components', { type: 'Part', partNumber: 'PN', serialNumber: `SN-${randomBytes(3).toString('hex')}`, ...body })).uid as string;
  const engine = await component({
    name: 'Engine', type: 'Engine', partNumber: 'ARRIEL-2D',
    counters: [
      { displayText: 'Hours since new', unit: 'hours', initialValue: 3012.4 },
      { displayText: 'Hours since overhaul', unit: 'hours', basis: 'sinceEvent', initialValue: 412.5 },
      { displayText: 'Cycles', unit: 'cycles', initialValue: 4100 },
    ],
  });
  const module = await component({ name: 'Gas generator module', counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 120.3 }] });
  const blades = await component({ name: 'Blade set', counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 15.25 }] });
  const battery = await component({ name: 'Battery', counters: [{ displayText: 'Cycles', unit: 'cycles', initialValue: 3 }] });
  const hitch = await component({ name: 'Tow hitch', counters: [{ displayText: 'Distance', unit: 'distance', initialValue: 100 }] });
  await call('POST', `/components/${engine}/install`, {
    parentType: 'aircraft', parentUid: heli,
    mappings: [{ counterKey: 'hoursSinceNew', sourceKey: 'hobbs' }, { counterKey: 'hoursSinceOverhaul', sourceKey: 'hobbs' }, { counterKey: 'cycles', sourceKey: 'cycles' }],
  });
  await call('POST', `/components/${module}/install`, { parentType: 'component', parentUid: engine, mappings: [{ counterKey: 'hours', sourceKey: 'hoursSinceNew' }] });
  await call('POST', `/components/${blades}/install`, { parentType: 'component', parentUid: module, mappings: [{ counterKey: 'hours', sourceKey: 'hours' }] });
  await call('POST', `/components/${hitch}/install`, { parentType: 'vehicle', parentUid: ute, mappings: [{ counterKey: 'distance', sourceKey: 'odometer' }] });

  // schedule: by hours on the helicopter and the engine, by date on the plane, a one-off on the drone
  const item = async (body: Record<string, unknown>) => (await call('POST', '/schedule-items', body)).uid as string;
  const scheduleItems = [
    await item({ name: '100-hourly inspection', type: 'Inspection', relatedTo: heli, relatedToType: 'aircraft', recurring: true, trackingItem: 'hobbs', dueAtInterval: 4400, recurringInterval: 100 }),
    await item({ name: 'Engine overhaul', type: 'Overhaul', relatedTo: engine, relatedToType: 'component', recurring: true, trackingItem: 'hoursSinceOverhaul', dueAtInterval: 3000, recurringInterval: 3000 }),
    await item({ name: 'Annual inspection', type: 'Inspection', relatedTo: plane, relatedToType: 'aircraft', recurring: true, calendarDateDue: '2026-03-31', calendarRecurring: 365 }),
    await item({ name: 'Propeller check', type: 'Inspection', relatedTo: drone, relatedToType: 'aircraft', recurring: false, trackingItem: 'flightTime', dueAtInterval: 50 }),
  ];

  // flight logs: a year from 2025-01-01, one every few hours, batches of 50
  const total = opts.logs;
  const aircraft = [heli, plane, drone];
  const registrations: Record<string, string> = {};
  for (const a of (await call('GET', '/aircraft')).data as { uid: string; registration: string }[]) registrations[a.uid] = a.registration;
  const logUids: string[] = [];
  const yearMs = 365 * 86_400_000;
  for (let done = 0; done < total; ) {
    const items = [];
    for (let i = 0; i < 50 && done + i < total; i++) {
      const n = done + i;
      const ac = aircraft[n % 3]!;
      const hours = Math.round((0.3 + rnd() * 2.5) * 10) / 10;
      const tracking =
        ac === heli
          ? { hobbs: hours, landings: 1 + Math.floor(rnd() * 6), cycles: 1 + Math.floor(rnd() * 3), ...(n % 7 === 0 ? { fuelUplift: Math.round(rnd() * 4000) / 10, remarks: `sortie ${n}` } : {}) }
          : ac === plane
            ? { tacho: Math.round(hours * 100 + rnd() * 9) / 100, airframeHours: hours }
            : { flightTime: Math.round(rnd() * 90) / 100, battery: `B${n % 4}` };
      items.push({
        timeDate: new Date(Date.UTC(2025, 0, 1) + Math.floor((n / total) * yearMs) + (n % 60) * 1000).toISOString(),
        pilot: n % 5 === 0 ? `${p}-owner` : `${p}-pilot`,
        aircraftId: ac,
        aircraftRegistration: registrations[ac],
        startLocation: ['YSSY', 'YSBK', 'YMML', 'YBBN'][n % 4],
        endLocation: ['YSBK', 'YSSY', 'YBBN', 'YMML'][n % 4],
        pax: n % 6,
        ...(n % 11 === 0 ? { flightNumber: `GEN${n}`, notes: 'charter' } : {}),
        ...tracking,
      });
    }
    const r = await call('POST', '/flight-logs/batch', { items });
    if (r.errors?.length) throw new Error(`generated flight logs refused: ${JSON.stringify(r.errors.slice(0, 3))}`);
    for (const c of r.results as { uid: string }[]) logUids.push(c.uid);
    done += items.length;
    opts.onProgress?.(done, total);
  }
  // edits and deletions: totals, counters and the rollup must follow them
  for (const uid of logUids.slice(0, 6)) await call('PATCH', `/flight-logs/${uid}`, { notes: 'corrected', pax: 3 });
  for (const uid of logUids.filter((_, i) => i % 3 === 0).slice(1, 4)) await call('PATCH', `/flight-logs/${uid}`, { hobbs: 1.7 });
  const deleted = logUids.slice(-5);
  if (deleted.length) await call('POST', '/flight-logs/batch-delete', { ids: deleted });

  await call('POST', `/components/${engine}/counters/reset`, { counterKey: 'hoursSinceOverhaul', newValue: 0 });
  await call('POST', `/schedule-items/${scheduleItems[0]}/complete`, {});
  await call('POST', `/schedule-items/${scheduleItems[2]}/complete`, { completedAt: '2026-03-20T02:00:00Z', notes: 'no findings' });

  // forms: a vehicle check raising odometers and defects, with a webhook and notification emails (deliveries wait
  // in the outbox: these tests run no dispatcher)
  const form = (
    await call('POST', '/forms', {
      name: 'Vehicle pre-start', code: `prestart-${p}`, department: 'Ground',
      sections: [
        { name: 'Vehicle', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' }] },
        { name: 'Checks', fields: [{ name: 'tyres', label: 'Tyres', type: 'checklist', required: true, companions: [{ name: 'comment' }] }, { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' }] },
      ],
      webhooks: [{ url: 'https://hooks.example.com/fleetops', secret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==' }],
      notification: true,
      notificationRecipients: [{ email: 'ops@example.com', name: 'Ops desk' }, { phone: '+61412000001', name: 'Duty engineer' }],
    })
  ).uid as string;
  // integration settings (an SMS provider): written by an admin key
  const admin = (await new ApiKeyService(database.prisma).create({ companyId: id, scope: 'admin', name: 'generated admin' })).key;
  await call('PUT', '/settings/integrations', { sms: { provider: 'twilio', accountSid: 'AC' + '0123456789abcdef'.repeat(2), authToken: 'generated-auth-token-0123', from: '+61255501234' } }, { authorization: `Bearer ${admin}` });
  const aircraftForm = (
    await call('POST', '/forms', {
      name: 'Daily aircraft inspection', code: `daily-${p}`, department: 'Flight ops',
      sections: [{ name: 'Aircraft', fields: [{ name: 'aircraft', label: 'Aircraft', type: 'aircraft', required: true }, { name: 'oil', label: 'Oil added (L)', type: 'number', precision: 1 }] }],
    })
  ).uid as string;
  let odometer = 48210;
  for (let i = 0; i < 6; i++) {
    odometer = Math.round(odometer * 10 + rnd() * 3000) / 10;
    await call(
      'POST',
      '/form-completions',
      { formId: form, answers: { vehicle: ute, odometer, tyres: i % 3 ? 'pass' : 'fail', ...(i === 2 ? { defects: [{ description: 'Cracked mirror' }] } : {}) }, submitterName: 'Dee Driver' },
      i === 0 ? { 'idempotency-key': `gen-${p}-completion-0` } : {},
    );
  }
  await call('POST', '/form-completions', { formId: aircraftForm, answers: { aircraft: heli, oil: 0.5 } }, { 'idempotency-key': `gen-${p}-aircraft-check` });

  // maintenance alerts (an admin key's settings; an item already past its hours), evaluated as a server process
  // would after a write: the alerts and their deliveries wait in the outbox like the form's
  await call('PUT', '/settings/alerts', { dueSoonDays: 30, recipients: [{ email: 'maintenance@example.com' }, { phone: '+61412000002' }, { url: 'https://hooks.example.com/alerts', secret: 'alerts-secret-0123' }] }, { authorization: `Bearer ${admin}` });
  await call('POST', '/schedule-items', { name: 'Engine borescope', type: 'Inspection', relatedTo: heli, relatedToType: 'aircraft', recurring: false, trackingItem: 'hobbs', dueAtInterval: 1 });
  await createServices(scopedPrisma(database.prisma, id)).alerts.evaluate();

  return {
    id,
    key,
    aircraft,
    vehicles: [ute, `${p}-tug`],
    components: [engine, module, blades, battery, hitch],
    scheduleItems,
    forms: [form, aircraftForm],
    logs: total - deleted.length,
  };
}
