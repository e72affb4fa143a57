// Workspaces and their API keys (issued by the CLI; keys are shown once and stored hashed).
import { generateKey, hashKey } from '../api/auth.js';
import type { Database } from './db.js';
import { newId } from './ids.js';

export async function createWorkspace(db: Database, name: string): Promise<{ workspace_id: string; api_key: string; key_id: string }> {
  const workspaceId = newId('ws');
  const apiKey = generateKey();
  const keyId = newId('key');
  await db.prisma.workspace.create({
    data: { id: workspaceId, name, apiKeys: { create: { id: keyId, hash: hashKey(apiKey) } } },
  });
  return { workspace_id: workspaceId, api_key: apiKey, key_id: keyId };
}

export async function createKey(db: Database, workspaceId: string): Promise<{ key_id: string; api_key: string; workspace_id: string } | null> {
  const workspace = await db.prisma.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) return null;
  const apiKey = generateKey();
  const keyId = newId('key');
  await db.prisma.apiKey.create({ data: { id: keyId, workspaceId, hash: hashKey(apiKey) } });
  return { key_id: keyId, api_key: apiKey, workspace_id: workspaceId };
}

export async function revokeKey(db: Database, keyId: string): Promise<boolean> {
  const result = await db.prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
  return result.count > 0;
}
