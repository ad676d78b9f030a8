// Maintenance alerts after the CLI's writes (docs/notifications.md; gaps.md §14 "after any write that moves totals"):
// `fleetops import-logs` and `fleetops import`, run as the server runs a relayed command (runCli with its database),
// raise the alert their figures call for at once, as the same flight logged through the API does, not at the next
// date sweep (15 minutes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { now } from '../src/lib/clock.js';
import { adminKey, companyFixture, createTestEnv, uniq, type TestEnv } from './helpers.js';
import { localServer } from './form-notifications.js';

type Body = Record<string, any>;

describe('alerts after a relayed import-logs', () => {
  let env: TestEnv;
  let hooks: Body[];
  let srv: Awaited<ReturnType<typeof localServer>>;
  let dir: string;
  beforeAll(async () => {
    hooks = [];
    srv = await localServer((_req, body, res) => {
      hooks.push(JSON.parse(body));
      res.writeHead(200).end();
    });
    // the default sweep interval (15 minutes): only the start-up sweep runs during the test
    env = await createTestEnv({ dispatch: true, config: { webhookAllowPrivate: true, webhookTimeoutMs: 2000 } });
    const admin = await adminKey(env);
    const put = await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: { dueSoonHours: 10, recipients: [{ url: srv.url('/alerts') }] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-webhooks-'));
  });
  afterAll(async () => {
    await env?.close();
    await srv?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function settle() {
    for (let i = 0; i < 4; i++) {
      await env.app.alerts!.idle();
      await env.app.dispatcher!.idle();
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('flight logs imported through the running server bring an item within dueSoonHours: it is alerted', async () => {
    const hobbs = (await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs as number;
    const r = await env.json('POST', '/api/v1/schedule-items', {
      body: { name: `Imported ${uniq()}`, type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, trackingItem: 'hobbs', dueAtInterval: hobbs + 20 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const uid = r.body.uid;
    await settle();
    expect(hooks.filter((h) => h.itemUid === uid)).toEqual([]);

    const at = new Date(now().getTime() - 3_600_000).toISOString();
    fs.writeFileSync(path.join(dir, 'logs.csv'), ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,hobbs,landings', `${at},acme-pilot,acme-ac-1,VH-ACM,YSSY,YSBK,1,15,1`].join('\n'));
    // what the server runs for `fleetops import-logs` relayed over its admin socket (src/server.ts: cliHandler)
    const cli = await runCli(['import-logs', '--company', env.a.id, 'logs.csv'], { database: env.database, cwd: dir });
    expect(cli.code, cli.stderr).toBe(0);
    expect((await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs).toBe(hobbs + 15);
    await settle();
    expect(hooks.filter((h) => h.itemUid === uid).map((h) => h.event)).toEqual(['maintenance.due_soon']);
  });

  it('an import file that raises an aircraft\u2019s initialValues past an item (fleetops import, relayed): it is alerted', async () => {
    const ac = (await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body;
    const r = await env.json('POST', '/api/v1/schedule-items', {
      body: { name: `Imported initial ${uniq()}`, type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, trackingItem: 'hobbs', dueAtInterval: ac.totals.hobbs + 50 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const uid = r.body.uid;
    await settle();
    expect(hooks.filter((h) => h.itemUid === uid)).toEqual([]);
    const company = companyFixture(env.a.id, env.a.key, 'acme');
    (company.aircraft[0].initialValues as Record<string, number>).hobbs = ac.initialValues.hobbs + 60;
    fs.writeFileSync(path.join(dir, 'import.json'), JSON.stringify({ companies: [company] }));
    const cli = await runCli(['import', 'import.json'], { database: env.database, cwd: dir });
    expect(cli.code, cli.stderr).toBe(0);
    expect((await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs).toBe(ac.totals.hobbs + 60);
    await settle();
    expect(hooks.filter((h) => h.itemUid === uid).map((h) => h.event)).toEqual(['maintenance.overdue']);
  });
});
