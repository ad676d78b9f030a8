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

/**
 * A bug met while an operation of the REST façade ran (a REST route, an MCP tool): the first error, and the paths in
 * the operation's result where bugs surfaced. The channel that answers the 500 reports it once (reportUnexpected logs
 * the error itself, with the paths).
 */
export class OperationBug extends Error {
  constructor(
    readonly error: unknown,
    readonly paths: ReadonlyArray<ReadonlyArray<string | number> | undefined>,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'OperationBug';
  }
}

export function reportUnexpected(err: unknown, context: Record<string, unknown> = {}, log?: { error(obj: object, msg: string): void }) {
  const more = err instanceof OperationBug ? { paths: err.paths } : {};
  const error = err instanceof OperationBug ? err.error : err;
  if (log) log.error({ err: error, ...context, ...more }, 'unexpected error');
  else sink(error, { ...context, ...more });
}
