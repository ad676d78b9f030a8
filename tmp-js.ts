import { z } from 'zod';
import { restRoutes } from './src/rest/routes.js';
for (const r of restRoutes) {
  for (const [k, s] of [['params', r.params], ['query', r.query], ['body', r.body], ['response', r.response]] as const) {
    if (!s) continue;
    try { const j = z.toJSONSchema(s as z.ZodType, { io: k === 'response' ? 'output' : 'input', unrepresentable: 'any' }); if (process.argv[2] === r.operationId) console.log(k, JSON.stringify(j, null, 1)); }
    catch (e) { console.log('FAIL', r.operationId, k, String(e)); }
  }
}
