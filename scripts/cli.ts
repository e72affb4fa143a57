// Operator commands. Each prints exactly one JSON object on stdout; errors go to stderr.
//   workspace create --name NAME
//   key create --workspace ID
//   key revoke KEY_ID
import { parseArgs } from 'node:util';
import { createDatabase, type Database } from '../lib/db.js';
import { env } from '../lib/env.js';
import { createKey, createWorkspace, revokeKey } from '../lib/workspaces.js';

type Command = (db: Database, args: string[]) => Promise<unknown>;

class UsageError extends Error {}

const commands: Record<string, Command> = {
  'flow run': async (db, args) => (await import('../lib/flows-cli.js')).flowRunCommand(db, args), // FLOW_ID --file KEY=PATH ... [--metadata JSON] [--name N]
  'workspace create': async (db, args) => {
    const { values } = parseArgs({ args, options: { name: { type: 'string' } } });
    if (!values.name?.trim()) throw new UsageError('workspace create needs --name NAME');
    const created = await createWorkspace(db, values.name.trim());
    return { workspace_id: created.workspace_id, api_key: created.api_key };
  },
  'key create': async (db, args) => {
    const { values } = parseArgs({ args, options: { workspace: { type: 'string' } } });
    if (!values.workspace) throw new UsageError('key create needs --workspace ID');
    const created = await createKey(db, values.workspace);
    if (!created) throw new UsageError(`workspace ${values.workspace} does not exist`);
    return created;
  },
  'key revoke': async (db, args) => {
    const [keyId] = args;
    if (!keyId) throw new UsageError('key revoke needs KEY_ID');
    if (!(await revokeKey(db, keyId))) throw new UsageError(`key ${keyId} does not exist or is already revoked`);
    return { key_id: keyId, revoked: true };
  },
};

async function main(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = commands[name];
  if (!command) {
    process.stderr.write(`usage: npm run --silent cli -- <command>\n  ${Object.keys(commands).join('\n  ')}\n`);
    return 64;
  }
  const db = createDatabase(env().DATABASE_URL, 2);
  try {
    const result = await command(db, argv.slice(2));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return error instanceof UsageError ? 64 : 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
