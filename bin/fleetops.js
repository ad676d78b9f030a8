#!/usr/bin/env node
// The `fleetops` command. TypeScript sources run through tsx's loader, so a checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
const result = await runCli(process.argv.slice(2), {
  stdout: (chunk) => void process.stdout.write(chunk),
  stderr: (chunk) => void process.stderr.write(chunk),
  tty: !!process.stderr.isTTY,
});
process.exitCode = result.code;
