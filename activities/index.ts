// The worker's activities, built over injected clients.
import type { Database } from '../lib/db.js';
import type { Storage } from '../lib/storage.js';
import type { OcrSettings } from './documents/types.js';
import { createEventActivities } from './events.js';
import { createExtractionActivities } from './extraction.js';
import { createFlowActivities } from './flows.js';
import { createWebhookActivities } from './webhooks.js';

export interface ActivityDeps {
  db: Database;
  storage: Storage;
  ocr?: OcrSettings;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createExtractionActivities(deps),
    ...createEventActivities(deps),
    ...createFlowActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
