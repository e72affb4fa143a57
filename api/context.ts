import type { HttpBindings } from '@hono/node-server';
import type { Client } from '@temporalio/client';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../lib/db.js';
import type { Env } from '../lib/env.js';
import type { Storage } from '../lib/storage.js';

export interface AppDeps {
  env: Env;
  db: Database;
  storage: Storage;
  temporal: Client;
}

export interface AppEnv {
  /** Set when served by @hono/node-server; absent under app.request() */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    workspaceId: string;
    /** the id of the caller's API key (recorded e.g. as a flow run's reviewer) */
    apiKeyId: string;
  };
}

export type Router = OpenAPIHono<AppEnv>;
