// GraphQL inputs derived from the services' schemas (src/graphql/inputs.ts, decision 0007): the real vehicle schemas
// as GraphQL shows them, and every body their zod schema accepts is accepted by GraphQL's coercion.
import fc from 'fast-check';
import { coerceInputValue, printType, type GraphQLInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema as appSchema } from '../src/graphql/schema.js';
import { CreateVehicleSchema, FUEL_TYPES, TRANSMISSION_TYPES, UpdateVehicleSchema } from '../src/modules/vehicles/service.js';

describe('vehicles (the real schema)', () => {
  const typeOf = (name: string) => appSchema.getType(name) as GraphQLInputObjectType;

  it('createVehicle and updateVehicle take the derived types; createVehicles keeps JSON items', () => {
    const m = appSchema.getMutationType()!.getFields();
    expect(String(m.createVehicle.args.find((a) => a.name === 'input')!.type)).toBe('CreateVehicleInput!');
    expect(String(m.updateVehicle.args.find((a) => a.name === 'input')!.type)).toBe('UpdateVehicleInput!');
    expect(String(m.createVehicles.args.find((a) => a.name === 'items')!.type)).toBe('JSON!');
    const create = printType(typeOf('CreateVehicleInput'));
    expect(create).toContain('  make: String!'); // required by the service: non-null (src/graphql/inputs.ts)
    expect(create).toContain('  year: Int');
    expect(create).toContain('  tracking: VehicleTrackingInput');
    expect(create).toContain('  trackingDevice: VehicleTrackingDeviceInput');
    expect(create).toContain('  maintenanceTrackingItems: JSON');
    expect(create).toContain('  photos: [JSON]');
    expect(printType(typeOf('UpdateVehicleInput'))).toContain('  tracking: VehicleTrackingInput');
  });

  /** A vehicle body, mostly of the right shapes with now and then a wrong one: zod keeps those it accepts. */
  const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/);
  const anything = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 30, arbitrary: arb as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: anything });
  const str = fc.string({ maxLength: 12 });
  const vehicleBody = (requiredKeys: string[]) => fc.record(
    {
      make: maybe(fc.string({ minLength: 1, maxLength: 12 })),
      model: maybe(fc.string({ minLength: 1, maxLength: 12 })),
      registration: maybe(fc.string({ minLength: 1, maxLength: 12 })),
      vin: maybe(str),
      color: maybe(str),
      year: maybe(fc.integer({ min: 1885, max: 2200 })),
      fuelType: maybe(fc.constantFrom(...FUEL_TYPES)),
      transmissionType: maybe(fc.constantFrom(...TRANSMISSION_TYPES)),
      totalSeats: maybe(fc.integer({ min: 0, max: 10_000 })),
      passengerCapacity: maybe(fc.integer({ min: 0, max: 10_000 })),
      tracking: maybe(fc.constantFrom('kilometers', 'miles', 'hours').map((unit) => ({ kilometers: unit === 'kilometers', miles: unit === 'miles', hours: unit === 'hours' }))),
      trackingDevice: maybe(
        fc.record(
          { provider: fc.constant('tracksolid'), imei: fc.string({ minLength: 1 }), mapIcon: fc.constantFrom('car', 'truck', 'bus'), linkedAt: str },
          { requiredKeys: ['provider', 'imei'] },
        ),
      ),
      maintenanceTrackingItems: maybe(
        fc.dictionary(key, fc.record({ displayText: fc.string({ minLength: 1 }), type: fc.constantFrom('number', 'string'), precision: fc.integer({ min: 0, max: 10 }) }, { requiredKeys: ['displayText', 'type'] })),
      ),
      // tracking figures: below 1e9 with at most 6 decimal places (gaps.md §11); a vehicle's are readings, 0 or more
      initialValues: maybe(fc.dictionary(key, fc.integer({ min: 0, max: 99_999_999_999 }).map((n) => n / 100))),
      thirdPartyUser: maybe(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }))),
      photos: maybe(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 })),
      location: maybe(str),
    },
    { requiredKeys: requiredKeys as never },
  );

  for (const [name, zodSchema, requiredKeys] of [
    ['CreateVehicleInput', CreateVehicleSchema, ['make', 'model', 'registration']],
    ['UpdateVehicleInput', UpdateVehicleSchema, []],
  ] as const) {
    it(`every body ${name}'s zod schema accepts is accepted by GraphQL coercion of the derived type`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(vehicleBody([...requiredKeys]), (body) => {
          if (!zodSchema.safeParse(body).success) return;
          accepted++;
          // a JSON round trip: what a client can send as variables
          expect(() => coerceInputValue(JSON.parse(JSON.stringify(body)), typeOf(name))).not.toThrow();
        }),
        { numRuns: 400 },
      );
      expect(accepted).toBeGreaterThan(100);
    });
  }
});
