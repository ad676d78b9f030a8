/**
 * Where errors that have no 4xx meaning go when the code that meets them has no logger of its own (a batch item
 * that failed unexpectedly): the app sets the sink to its logger; the default writes to stderr.
 */
type Sink = (err: unknown, context: Record<string, unknown>) => void;
let sink: Sink = (err, context) => console.error('unexpected error', context, err);

export function setUnexpectedErrorSink(s: Sink) {
  sink = s;
}

export function reportUnexpected(err: unknown, context: Record<string, unknown> = {}) {
  sink(err, context);
}
