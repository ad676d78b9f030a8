// Used only by the prisma CLI (generate). The service opens its own driver adapter (src/db/).
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
