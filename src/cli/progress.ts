import { Presets, SingleBar } from 'cli-progress';
import type { Io } from './main.js';

/**
 * A progress bar drawn on the caller's terminal: this process's, or the one a command relayed through a running
 * server came from (its output is relayed as written, with the terminal's width). None when that is not a terminal.
 */
export function terminalBar(io: Pick<Io, 'tty' | 'columns' | 'writeErr'>, format: string): SingleBar | undefined {
  if (!io.tty) return undefined;
  const terminal = { isTTY: true, columns: io.columns ?? 80, write: (s: string) => (io.writeErr(s), true) };
  // cli-progress types its stream as a full WriteStream; it uses isTTY, columns and write only
  return new SingleBar({ format, hideCursor: true, stream: terminal as unknown as NodeJS.WriteStream }, Presets.shades_classic);
}
