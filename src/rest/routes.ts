/** Every REST route of /api/v1, as the modules declare them (registered in src/modules/index.ts). */
export { restRoutes } from '../modules/index.js';
