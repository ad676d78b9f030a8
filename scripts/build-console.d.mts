/** Builds the operator console into `outdir` (default dist/console); returns the names of the files written. */
export function buildConsole(opts?: { outdir?: string }): Promise<string[]>;
