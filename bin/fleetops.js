#!/usr/bin/env node
// The `fleetops` command. TypeScript sources run through tsx's loader, so a checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
