import type { z } from 'zod';
import { ValidationError, fieldErrorsFromZod, invalid, jsonPointer, type FieldError } from '../errors.js';

/**
 * Input checks run by Pothos' validation plugin are the services' own (Standard Schema: a zod schema, or a
 * service check wrapped by `serviceCheck`). A failure becomes the service's ValidationError, with the same message
 * and JSON Pointer paths on every channel.
 */
type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>; error?: ValidationError };

const pointer = (path: Issue['path'] = []) => jsonPointer(path.map((p) => (typeof p === 'object' ? p.key : p)));

export function validationErrorFrom(issues: ReadonlyArray<Issue>): ValidationError {
  const own = issues.find((i) => i.error instanceof ValidationError)?.error;
  if (own) return own;
  const errors: FieldError[] = issues.map((i) => ({ path: pointer(i.path), message: i.message }));
  const summary = errors.length === 1 ? `${errors[0].path || 'input'}: ${errors[0].message}` : `${errors.length} invalid fields`;
  return new ValidationError(`invalid input: ${summary}`, errors);
}

/** A Standard Schema (what Pothos' validation plugin runs) that is a service's check of an input. */
export interface ServiceCheck<S extends z.ZodType, T = z.output<S>> {
  /** The schema the GraphQL input type, the documents and MCP schemas are read off. */
  readonly schema: S;
  readonly what: string;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { value: T; issues?: undefined } | { issues: Issue[] };
    readonly types?: { input: z.input<S>; output: T };
  };
  /** The check outside GraphQL (CLI commands, batch items): the checked value, or the service's ValidationError. */
  parse(value: unknown): T;
}

/**
 * The service's check of an input, as Pothos' validation plugin runs it: `schema` parsed, or the service's own
 * `check` (a function of the raw input that returns the checked value or throws its ValidationError) where a
 * schema alone does not say everything (fields refused with messages of their own, rules across fields). `what`
 * names the input in a schema's message ("invalid flight log: /pilot: pilot is required"). The same words on
 * every channel.
 */
export function serviceCheck<S extends z.ZodType, T = z.output<S>>(what: string, schema: S, check?: (raw: unknown) => T): ServiceCheck<S, T> {
  const parse =
    check ??
    ((value: unknown): T => {
      const r = schema.safeParse(value);
      if (!r.success) invalid(what, fieldErrorsFromZod(r.error.issues));
      return r.data as T;
    });
  return {
    schema,
    what,
    '~standard': {
      version: 1,
      vendor: 'fleetops',
      validate(value) {
        try {
          return { value: parse(value) };
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          const fields = e.errors?.length ? e.errors : [{ path: '', message: e.message }];
          return { issues: fields.map((f) => ({ message: f.message, path: f.path.split('/').slice(1), error: e })) };
        }
      },
    },
    parse,
  };
}
