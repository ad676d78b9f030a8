/**
 * The words of the input faults (src/lib/input-faults.ts), in a module that imports nothing: the CSV rules the console
 * bundles (src/modules/flight-logs/csv-rules.ts) say them too, and input-faults loads src/errors.ts (and zod).
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
export const SURROGATE_MESSAGE = 'must not hold a lone surrogate (a \\ud800-\\udfff escape without its pair): it is not Unicode text';
export const PROTO_KEY_MESSAGE = '__proto__ is not allowed as a key';
