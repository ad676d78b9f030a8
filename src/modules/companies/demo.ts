import type { Database } from '../../db/database.js';
import { ApiKeyService } from '../../auth/keys.js';
import { createServices } from '../../context.js';
import { scopedPrisma } from '../../db/scoped.js';
import { importData } from './import.js';

/** `fleetops demo`: a small demo company to try the API at once; safe to run again (it updates, adds a key). */
export const DEMO_COMPANY = 'demo';

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
      ],
      vehicles: [
        { uid: 'demo-ute', make: 'Toyota', model: 'Hilux', registration: 'DEMO01', year: 2022, fuelType: 'diesel', transmissionType: 'automatic', tracking: { kilometers: true, miles: false, hours: false }, initialValues: { odometer: 48210 } },
        { uid: 'demo-fuel-truck', make: 'Isuzu', model: 'NPR', registration: 'DEMO02', fuelType: 'diesel', tracking: { kilometers: false, miles: false, hours: true } },
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

export async function loadDemo(database: Database): Promise<{ key: string; companyId: string }> {
  await importData(database, demoData);
  const services = createServices(scopedPrisma(database.prisma, DEMO_COMPANY));
  await services.forms.upsertTemplate(demoForm);
  const { key } = await new ApiKeyService(database.prisma).create({ companyId: DEMO_COMPANY, name: 'demo' });
  return { key, companyId: DEMO_COMPANY };
}
