/**
 * Where errors that have no 4xx meaning go: the request's own logger when the code that meets them has it (its
 * lines carry the request's id), else the sink (a batch item that failed unexpectedly): the app sets the sink to its
 * logger; the default writes to stderr.
 */
type Sink = (err: unknown, context: Record<string, unknown>) => void;
let sink: Sink = (err, context) => console.error('unexpected error', context, err);

export function setUnexpectedErrorSink(s: Sink) {
  sink = s;
}

export function reportUnexpected(err: unknown, context: Record<string, unknown> = {}, log?: { error(obj: object, msg: string): void }) {
  if (log) log.error({ err, ...context }, 'unexpected error');
  else sink(err, context);
}
