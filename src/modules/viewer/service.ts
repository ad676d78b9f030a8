import type { ScopedPrisma } from '../../db/scoped.js';
import { UnauthorizedError } from '../../errors.js';
import type { ApiKeyInfo } from '../../auth/keys.js';

/**
 * Who is signed in (console/NEEDS.md §1): the company a request acts in, the API key it authenticated with (never
 * the key itself) and the user the key acts as. Any key may read it, whatever its scope: a front end learns from it
 * what to offer (write buttons for read_write keys, management pages for admin keys) and whose company it shows.
 */
export interface ViewerCompany {
  id: string;
  name: string;
}

export interface Viewer {
  company: ViewerCompany;
  key: ApiKeyInfo;
  /** The acting user: the key's user, or else the company's owner (null when the company has no such user). */
  userId: string | null;
}

const keySelect = { id: true, companyId: true, name: true, prefix: true, userId: true, scope: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

export class ViewerService {
  constructor(
    private readonly db: ScopedPrisma,
    /** The request's key and acting user (null key: a command on the server, which has no viewer). */
    private readonly actor: () => { keyId: string | null; userId: string | null },
  ) {}

  async viewer(): Promise<Viewer> {
    const { keyId, userId } = this.actor();
    if (!keyId) throw new UnauthorizedError('no API key: the viewer is the key a request is signed in with');
    const [company, key] = await Promise.all([
      this.db.company.findFirst({ select: { id: true, name: true } }),
      this.db.apiKey.findFirst({ where: { id: keyId }, select: keySelect }),
    ]);
    if (!company || !key) throw new UnauthorizedError('the API key is not a key of the company');
    return { company, key: key as ApiKeyInfo, userId };
  }
}
