// Bearer API keys: random, stored only as a SHA-256 hash, scoped to one workspace.
import { createHash, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from './context.js';
import { unauthorized } from './errors.js';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** `dk_` + 32 random bytes (256 bits) in base64url. */
export function generateKey(): string {
  return `dk_${randomBytes(32).toString('base64url')}`;
}

const KEY_SHAPE = /^dk_[A-Za-z0-9_-]{43}$/;

export function requireApiKey({ db }: Pick<AppDeps, 'db'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m || !KEY_SHAPE.test(m[1]!)) throw unauthorized();
    const key = await db.prisma.apiKey.findUnique({ where: { hash: hashKey(m[1]!) }, select: { id: true, workspaceId: true, revokedAt: true } });
    if (!key || key.revokedAt) throw unauthorized();
    c.set('workspaceId', key.workspaceId);
    c.set('apiKeyId', key.id);
    await next();
  };
}
