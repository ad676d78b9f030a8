// Runs before each test file (vitest setupFiles): the service's clock (src/lib/clock.ts) is fixed for the file, at
// TEST_CLOCK when it is set (an ISO 8601 instant: CI runs the time-dependent suites at 00:30, 12:30 and 23:30 UTC,
// .ci/run) or else at the instant the file starts. A test that reads "today" from the clock and a service that
// reads it while answering then see the same instant, so no test depends on when it runs, midnight included.
import { afterAll } from 'vitest';
import { setClock } from '../src/lib/clock.js';

const at = process.env.TEST_CLOCK;
if (at && Number.isNaN(Date.parse(at))) throw new Error(`TEST_CLOCK=${at} is not an ISO 8601 instant`);
setClock(at ? new Date(at) : new Date());
afterAll(() => setClock(null));
