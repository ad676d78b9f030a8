// inputFromZod (src/graphql/zod-input.ts): each rule of the zod → GraphQL input mapping, read off the printed SDL of a
// throwaway Pothos builder; then, on the real schema, every vehicle body zod accepts is accepted by GraphQL coercion.
import SchemaBuilder from '@pothos/core';
import fc from 'fast-check';
import { GraphQLScalarType, coerceInputValue, printType, type GraphQLInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeInputFromZod, type InputFromZodOptions } from '../src/graphql/zod-input.js';
import { schema as appSchema } from '../src/graphql/schema.js';
import { CreateVehicleSchema, FUEL_TYPES, TRANSMISSION_TYPES, UpdateVehicleSchema } from '../src/modules/vehicles/service.js';

function freshBuilder() {
  const b = new SchemaBuilder<{ Scalars: { JSON: { Input: unknown; Output: unknown }; DateTime: { Input: Date; Output: Date } } }>(
    {} as never, // no Prisma here: the app's Prisma plugin types would ask for its options
  );
  b.addScalarType('JSON', new GraphQLScalarType({ name: 'JSON', serialize: (v) => v, parseValue: (v) => v }));
  b.addScalarType('DateTime', new GraphQLScalarType({ name: 'DateTime', serialize: (v) => v, parseValue: (v) => new Date(String(v)) }));
  b.queryType({ fields: (t) => ({ ok: t.boolean({ resolve: () => true }) }) });
  return { b, derive: makeInputFromZod(b).inputFromZod };
}

/** The printed SDL of the types named, derived from `schema` as input type T. */
function sdl(schema: z.ZodType, opts?: InputFromZodOptions, names = ['T']): string {
  const { b, derive } = freshBuilder();
  derive('T', schema, opts);
  const s = b.toSchema();
  return names.map((n) => printType(s.getType(n)!)).join('\n');
}
/** The GraphQL type of field `a` of T. */
function typeOfA(schema: z.ZodType): string {
  const { b, derive } = freshBuilder();
  derive('T', z.object({ a: schema }));
  const t = b.toSchema().getType('T') as { getFields(): Record<string, { type: unknown }> };
  return String(t.getFields().a.type);
}

describe('scalars', () => {
  it('string, boolean, number, date and template literal', () => {
    expect(typeOfA(z.string())).toBe('String');
    expect(typeOfA(z.email())).toBe('String');
    expect(typeOfA(z.templateLiteral(['v', z.number()]))).toBe('String');
    expect(typeOfA(z.boolean())).toBe('Boolean');
    expect(typeOfA(z.number())).toBe('Float');
    expect(typeOfA(z.number().min(0).max(10))).toBe('Float');
    expect(typeOfA(z.date())).toBe('DateTime');
  });

  it('Int only for an integer whose bounds fit in 32-bit signed, else Float', () => {
    expect(typeOfA(z.number().int().min(0).max(10_000))).toBe('Int');
    expect(typeOfA(z.number().int().min(-2_147_483_648).max(2_147_483_647))).toBe('Int');
    expect(typeOfA(z.int32())).toBe('Int');
    expect(typeOfA(z.int().positive().lte(100))).toBe('Int');
    expect(typeOfA(z.number().int())).toBe('Float'); // safe-integer range: wider than Int
    expect(typeOfA(z.int())).toBe('Float');
    expect(typeOfA(z.number().int().min(0))).toBe('Float'); // no upper bound
    expect(typeOfA(z.number().int().max(10))).toBe('Float'); // no lower bound
    expect(typeOfA(z.number().int().min(0).max(2_147_483_648))).toBe('Float');
    expect(typeOfA(z.number().int().min(-2_147_483_649).max(0))).toBe('Float');
    expect(typeOfA(z.uint32())).toBe('Float');
  });

  it('a literal is its value’s scalar', () => {
    expect(typeOfA(z.literal('x'))).toBe('String');
    expect(typeOfA(z.literal(['x', 'y']))).toBe('String');
    expect(typeOfA(z.literal(3))).toBe('Int');
    expect(typeOfA(z.literal(1.5))).toBe('Float');
    expect(typeOfA(z.literal(3_000_000_000))).toBe('Float');
    expect(typeOfA(z.literal(true))).toBe('Boolean');
    expect(typeOfA(z.literal(['x', 1]))).toBe('JSON');
  });
});

describe('wrappers and pipes', () => {
  it('optional, nullable, nullish, default, prefault, catch and readonly are looked through', () => {
    expect(typeOfA(z.string().optional())).toBe('String');
    expect(typeOfA(z.string().nullable())).toBe('String');
    expect(typeOfA(z.string().nullish())).toBe('String');
    expect(typeOfA(z.number().int().min(0).max(9).default(1))).toBe('Int');
    expect(typeOfA(z.string().prefault('x'))).toBe('String');
    expect(typeOfA(z.boolean().catch(false))).toBe('Boolean');
    expect(typeOfA(z.object({ b: z.string() }).readonly())).toBe('TA');
  });

  it('a pipe or transform is its input side', () => {
    expect(typeOfA(z.string().transform(Number))).toBe('String');
    expect(typeOfA(z.string().pipe(z.coerce.number()))).toBe('String');
    expect(typeOfA(z.stringbool())).toBe('String');
    // z.preprocess takes anything before its schema runs
    expect(typeOfA(z.preprocess((v) => v, z.number()))).toBe('JSON');
  });
});

describe('fields', () => {
  it('every field is nullable; a field zod requires says so in its description', () => {
    expect(sdl(z.object({ req: z.string(), opt: z.string().optional(), def: z.string().default('x'), nul: z.string().nullable() }))).toBe(
      [
        'input T {',
        '  def: String',
        '',
        '  """Required."""',
        '  nul: String',
        '  opt: String',
        '',
        '  """Required."""',
        '  req: String',
        '}',
      ].join('\n'),
    );
  });

  it('descriptions come from .describe() or .meta() on the field or any wrapper; the object’s own is the type’s', () => {
    const out = sdl(
      z
        .object({
          inner: z.string().describe('inner text').optional(),
          outer: z.string().optional().describe('outer text'),
          meta: z.number().meta({ description: 'meta text' }),
          both: z.string().describe('inner').optional().describe('outer wins'),
        })
        .describe('The T input'),
    );
    expect(out).toContain('"""The T input"""\ninput T {');
    expect(out).toContain('"""inner text"""\n  inner: String');
    expect(out).toContain('"""outer text"""\n  outer: String');
    expect(out).toContain('"""meta text. Required."""\n  meta: Float');
    expect(out).toContain('"""outer wins"""\n  both: String');
  });

  it('the caller’s description overrides the schema’s', () => {
    expect(sdl(z.object({ a: z.string().optional() }).describe('from zod'), { description: 'from caller' })).toContain('"""from caller"""');
  });
});

describe('objects', () => {
  const Point = z.object({ x: z.number(), y: z.number() }).strict();

  it('a nested object is its own input type named parent + PascalCase(key); strict and strip objects alike', () => {
    const out = sdl(z.object({ home_point: Point, far: z.object({ z: z.boolean().optional() }).optional() }), undefined, ['T', 'THomePoint', 'TFar']);
    expect(out).toContain('  far: TFar\n');
    expect(out).toContain('  home_point: THomePoint');
    expect(out).toContain('input THomePoint {\n  """Required."""\n  x: Float');
    expect(out).toContain('input TFar {\n  z: Boolean\n}');
  });

  it('a name the caller gives is used, and one schema object used twice is one type', () => {
    const { b, derive } = freshBuilder();
    const names = new Map([[Point, 'PointInput']]);
    derive('Create', z.object({ from: Point, to: Point.optional() }), { names });
    derive('Update', z.object({ from: Point, to: Point.optional() }).partial(), { names });
    derive('Other', z.object({ at: Point }));
    const s = b.toSchema();
    expect(printType(s.getType('Create')!)).toContain('  from: PointInput');
    expect(printType(s.getType('Create')!)).toContain('  to: PointInput');
    expect(printType(s.getType('Update')!)).toContain('  from: PointInput');
    expect(printType(s.getType('Other')!)).toContain('  at: PointInput'); // already derived: reused, whatever the caller
    expect(Object.keys(s.getTypeMap()).filter((n) => /Point|From|To/.test(n))).toEqual(['PointInput']);
  });

  it('a recursive schema (z.lazy) refers to its own type', () => {
    type Node = { name: string; children?: Node[] };
    const NodeSchema: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(NodeSchema).optional() }));
    expect(sdl(z.object({ root: NodeSchema }), undefined, ['TRoot'])).toContain('  children: [TRoot!]');
  });

  it('objects with a catchall or in loose (passthrough) mode, records, unknown, any, unions and intersections are JSON', () => {
    expect(typeOfA(z.looseObject({ b: z.string() }))).toBe('JSON');
    expect(typeOfA(z.object({ b: z.string() }).passthrough())).toBe('JSON');
    expect(typeOfA(z.object({ b: z.string() }).catchall(z.number()))).toBe('JSON');
    expect(typeOfA(z.record(z.string(), z.number()))).toBe('JSON');
    expect(typeOfA(z.unknown())).toBe('JSON');
    expect(typeOfA(z.any())).toBe('JSON');
    expect(typeOfA(z.union([z.string(), z.number()]))).toBe('JSON');
    expect(typeOfA(z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]))).toBe('JSON');
    expect(typeOfA(z.intersection(z.object({ b: z.string() }), z.object({ c: z.string() })))).toBe('JSON');
  });
});

describe('arrays and enums', () => {
  it('an array is a list; its elements are non-null unless zod lets them be optional, nullable or any JSON', () => {
    expect(typeOfA(z.array(z.string()))).toBe('[String!]');
    expect(typeOfA(z.array(z.string().nullable()))).toBe('[String]');
    expect(typeOfA(z.array(z.string().optional()))).toBe('[String]');
    expect(typeOfA(z.array(z.unknown()))).toBe('[JSON]');
    expect(typeOfA(z.array(z.array(z.number().int().min(0).max(5))).min(1))).toBe('[[Int!]!]');
    expect(typeOfA(z.array(z.object({ b: z.string() })))).toBe('[TA!]');
  });

  it('an enum reuses the caller’s enum ref with the same values, else is a String listing them', () => {
    const { b, derive } = freshBuilder();
    const Unit = b.enumType('Unit', { values: ['hours', 'cycles'] as const });
    const Renamed = b.enumType('Renamed', { values: { A: { value: 'a' }, B: { value: 'b' } } });
    derive('T', z.object({ unit: z.enum(['cycles', 'hours']), ab: z.enum(['a', 'b']), other: z.enum(['hours']).optional() }), { enums: [Unit, Renamed] });
    const out = printType(b.toSchema().getType('T')!);
    expect(out).toContain('  unit: Unit');
    expect(out).toContain('  ab: Renamed');
    expect(out).toContain('"""One of: hours."""\n  other: String');
  });
});

describe('unhandled zod types', () => {
  it.each([
    ['bigint', z.bigint()],
    ['tuple', z.tuple([z.string(), z.number()])],
    ['map', z.map(z.string(), z.string())],
    ['set', z.set(z.string())],
    ['symbol', z.symbol()],
    ['custom', z.custom<string>((v) => typeof v === 'string')],
    ['null', z.null()],
  ])('%s is an error at schema build naming its path', (type, schema) => {
    const { derive } = freshBuilder();
    expect(() => derive('T', z.object({ ok: z.string(), deep: z.object({ list: z.array(schema.optional()) }) }))).toThrow(
      `inputFromZod: /deep/list[]: zod type "${type}" has no GraphQL input mapping`,
    );
  });

  it('so are a literal null, a field name GraphQL cannot carry, an empty object and a non-object root', () => {
    const { derive } = freshBuilder();
    expect(() => derive('T1', z.object({ a: z.literal(null) }))).toThrow('/a: literal null');
    expect(() => derive('T2', z.object({ 'a-b': z.string() }))).toThrow('/a-b: "a-b" is not a GraphQL field name');
    expect(() => derive('T3', z.object({ a: z.object({}) }))).toThrow('/a: an object without fields');
    expect(() => derive('T4', z.string() as never)).toThrow('(root): an input type needs a zod object');
    expect(() => derive('T5', z.looseObject({ a: z.string() }))).toThrow('(root): a loose or catchall object');
  });
});

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
      // tracking figures: below 1e9 with at most 6 decimal places (gaps.md §11)
      initialValues: maybe(fc.dictionary(key, fc.integer({ min: -99_999_999_999, max: 99_999_999_999 }).map((n) => n / 100))),
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

describe('argsFromZod: query arguments from a service filter schema', () => {
  it('one nullable argument per key; query-string flags and page sizes take their typed form', async () => {
    const { BoolParam, LimitParam } = await import('../src/lib/params.js');
    const b = new SchemaBuilder<{ Scalars: { JSON: { Input: unknown; Output: unknown } } }>({} as never);
    b.addScalarType('JSON', new GraphQLScalarType({ name: 'JSON', serialize: (v) => v, parseValue: (v) => v }));
    const { argsFromZod } = makeInputFromZod(b);
    const Filter = z
      .object({
        status: z.string().min(1).optional().describe('Only this status'),
        includeDeleted: BoolParam('includeDeleted').optional(),
        limit: LimitParam.optional(),
        kind: z.enum(['a', 'b']).optional(),
      })
      .strict();
    b.queryType({ fields: (t) => ({ list: t.boolean({ args: argsFromZod(t, 'F', Filter), resolve: () => true }) }) });
    const printed = printType(b.toSchema().getQueryType()!);
    expect(printed).toContain('"""Only this status"""\n    status: String');
    expect(printed).toContain('includeDeleted: Boolean'); // the union of true/false and "true"/"false" as GraphQL takes it
    expect(printed).toContain('limit: Int');
    expect(printed).toContain('"""One of: a, b."""\n    kind: String');
    // without the hint the same union would be JSON: the hint is what makes it Boolean
    expect(typeOfA(z.union([z.boolean(), z.enum(['true', 'false'])]))).toBe('JSON');
  });
});
