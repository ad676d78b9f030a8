import { Writable } from 'node:stream';
import { Presets, SingleBar } from 'cli-progress';
import type { Io } from './main.js';

/**
 * The terminal a bar is drawn on, as the stream cli-progress writes to (its `stream` option): a TTY of the caller's
 * width whose output goes where the command's other messages go.
 */
class Terminal extends Writable {
  readonly isTTY = true;
  constructor(
    readonly columns: number,
    private readonly out: (s: string) => void,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: unknown, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.out(String(chunk));
    done();
  }
}

/**
 * A progress bar drawn on the caller's terminal: this process's, or the one a command relayed through a running
 * server came from (its output is relayed as written, with the terminal's width). None when that is not a terminal.
 */
export function terminalBar(io: Pick<Io, 'tty' | 'columns' | 'writeErr'>, format: string): SingleBar | undefined {
  if (!io.tty) return undefined;
  return new SingleBar({ format, hideCursor: true, stream: new Terminal(io.columns ?? 80, io.writeErr) }, Presets.shades_classic);
}
