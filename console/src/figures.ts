import { figureFromText, numberFromText } from '../../src/modules/flight-logs/csv-rules.js';
import { ApiError, type FieldError } from './api.js';
// (relative imports name their .js file here: tests under test/ import this module, type-checked as Node modules)

/**
 * A figure an operator types (a Hobbs reading, pax, an odometer answer, an initial value, an alert threshold) as the
 * value the console sends, read by the one rule the server and the CSV import read a written figure by
 * (`numberFromText` and `figureFromText`, src/modules/flight-logs/csv-rules.ts; docs/import.md), never by
 * JavaScript's `Number(text)`:
 * - decimal notation (`12.5`, `-0.3`, `1.5E+3`; spaces around it trimmed) is a number;
 * - anything else (`0x10`, `0b11`, `12 h`, `Infinity`) is sent as the text typed, for the API to refuse in its own
 *   words at its path (`Number` read `0x10` as 16 hours);
 * - decimal notation that no double holds exactly (`12345678901234567`, or `1e999`, past a double's range, which JSON
 *   would carry as null) is refused here, before anything is sent, in the words every channel uses for such a JSON
 *   number (src/lib/json-numbers.ts `inexactMessage`).
 * A tracking figure (a tracking value, an initial value, an odometer answer, an alert's hours) is read by
 * `readFigure`, which first refuses more than 6 decimal places (trailing zeros aside) in the API's words
 * (placesMessage), since the double would round them away (`1.00000000000000001` is 1) and the API never see them.
 * A number the API does not hold to 6 places (pax, a precision, an engine count, a form's number answer) is read by
 * `readNumber`: taken as written whatever its places, or refused as above, and the API judges the rest.
 */
export type Figure = { value: number | string } | { fault: FieldError };

/**
 * One typed figure: `path` is the JSON Pointer the API reports the field at (`/trackingItems/hobbs`, `pointer`);
 * `what` names it as the API names it in its messages (`hobbs`, `pax`, `the reading`); without it the message is the
 * API's words for a form answer, which name no field ("must have at most 6 decimal places").
 */
export function readFigure(typed: string, path: string, what?: string): Figure {
  const read = figureFromText(typed.trim(), what ?? '', path);
  return 'fault' in read ? { fault: { path, message: read.fault.message.trim() } } : read;
}

/** A typed number that is not a tracking figure: decimal notation as written, or refused when no double holds it. */
export function readNumber(typed: string, path: string): Figure {
  return numberFromText(typed.trim(), path);
}

/** A JSON Pointer (RFC 6901) of keys: `pointer('answers', 'odo')` is `/answers/odo`. */
export const pointer = (...keys: string[]) => keys.map((k) => '/' + k.replace(/~/g, '~0').replace(/\//g, '~1')).join('');

/** The figures refused before sending, as the API's 400 would report them: the page shows each at its field. */
export const refusedFigures = (faults: FieldError[]) =>
  new ApiError(faults.map((f) => `${f.path}: ${f.message}`).join('; '), 'VALIDATION_ERROR', faults);

/**
 * The figures of one input: `figure()` for each field (a refused one is kept, and its text stands in for it), then
 * `check()`, which throws every refusal at once as an ApiError (the pages' submit shows it as it shows the API's).
 */
export class Figures {
  readonly faults: FieldError[] = [];

  /** A tracking figure (readFigure). */
  figure(typed: string, path: string, what?: string): number | string {
    return this.keep(readFigure(typed, path, what), typed);
  }

  /** Any other typed number (readNumber). */
  number(typed: string, path: string): number | string {
    return this.keep(readNumber(typed, path), typed);
  }

  private keep(read: Figure, typed: string): number | string {
    if ('fault' in read) {
      this.faults.push(read.fault);
      return typed.trim();
    }
    return read.value;
  }

  check(): void {
    if (this.faults.length) throw refusedFigures(this.faults);
  }
}
