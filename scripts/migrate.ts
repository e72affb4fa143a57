import { env } from '../lib/env.js';
import { migrate } from '../lib/migrate.js';

const applied = await migrate(env().DATABASE_URL, (line) => console.log(line));
console.log(applied.length ? `${applied.length} migration(s) applied` : 'database is up to date');
