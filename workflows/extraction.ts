// One extraction: read the document and load its tables (one activity; a local one for a small
// document), record the outcome. Every status change after `processing` is made here; activities
// keep the Postgres projection in step.
import { ApplicationFailure, patched, proxyActivities, proxyLocalActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { ExtractionActivities } from '../activities/extraction.js';
import { failureMessage } from './failure.js';
import { notifyExtraction } from './notify.js';
import { StatusAttr, TemplateAttr } from './search-attributes.js';
import { BOOKKEEPING_TIMEOUT } from './timeouts.js';

export interface ExtractionInput {
  extractionId: string;
}
export interface ExtractionOutcome {
  extractionId: string;
  status: 'completed' | 'failed';
  error?: string;
}

const bookkeepingOptions = {
  startToCloseTimeout: BOOKKEEPING_TIMEOUT,
  retry: { initialInterval: '1s', maximumInterval: '30s', backoffCoefficient: 2 },
};
const remoteBookkeeping = proxyActivities<ExtractionActivities>(bookkeepingOptions);
// Recording the outcome is a few milliseconds of Postgres: as local activities it runs within
// the workflow task that decides it, not as a task of its own through the server (a round trip
// and three history events each), which for a one-page document was most of its time after
// loading. The Web UI shows them as markers.
const localBookkeeping = proxyLocalActivities<ExtractionActivities>(bookkeepingOptions);
/** optimizeRows does nothing below this many rows (its own guard): no round trip to find out. */
const OPTIMIZE_MIN_ROWS = 50_000;

const maintenance = proxyActivities<ExtractionActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 2 },
});

const documentWorkRetry = { initialInterval: '2s', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['DocumentError', 'NoTemplateMatch', 'NotFound'] };
const documentWork = proxyActivities<ExtractionActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: documentWorkRetry,
});

// A small document is read within the workflow task (activities/extraction.ts, SMALL_BYTES): its
// retries are the same as extractDocument's; a read that outgrows it returns null, and
// extractDocument reads the document with heartbeats instead.
const smallDocumentWork = proxyLocalActivities<ExtractionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: documentWorkRetry,
});

/** The patch every run of the current shape records (never renamed: recorded histories carry it). */
const CURRENT_SHAPE = 'extraction-shape-2026-11';

export async function extractionWorkflow({ extractionId }: ExtractionInput): Promise<ExtractionOutcome> {
  // A run of today's shape records one marker for it (each marker is a history event, and the
  // version it upserts a visibility write). Runs recorded before it replay with the markers they
  // recorded, asked for in the order they were: bookkeeping as local activities, the read and
  // the write as one activity, small documents read locally.
  const current = patched(CURRENT_SHAPE);
  const local = current || patched('local-bookkeeping');
  const bookkeeping = local ? localBookkeeping : remoteBookkeeping;
  let rows: number;
  try {
    if (current || patched('one-document-activity')) {
      const small = current || patched('small-document-local') ? await smallDocumentWork.extractSmallDocument({ extractionId }) : null;
      const extracted = small ?? (await documentWork.extractDocument({ extractionId }));
      recordTemplate(extracted.templateId);
      rows = extracted.rows;
    } else {
      recordTemplate((await documentWork.analyzeDocument({ extractionId })).templateId);
      ({ rows } = await documentWork.loadTables({ extractionId }));
    }
    await bookkeeping.completeExtraction({ extractionId });
    upsertSearchAttributes([{ key: StatusAttr, value: 'completed' }]);
    await notifyExtraction(extractionId, 'extraction.completed', { local });
  } catch (error) {
    const message = failureMessage(error);
    await bookkeeping.failExtraction({ extractionId, message });
    upsertSearchAttributes([{ key: StatusAttr, value: 'failed' }]);
    await notifyExtraction(extractionId, 'extraction.failed', { local });
    // Fail the workflow too, so the Web UI shows what the API shows.
    throw ApplicationFailure.nonRetryable(message, 'ExtractionFailed');
  }
  // Housekeeping after the outcome is recorded: its failure changes nothing for the user.
  if (!local || rows >= OPTIMIZE_MIN_ROWS) await maintenance.optimizeRows({ rows }).catch(() => undefined);
  return { extractionId, status: 'completed' };
}

/** The template `auto` chose, for filtering runs in the Web UI. */
function recordTemplate(templateId: string): void {
  if (workflowInfo().typedSearchAttributes.get(TemplateAttr) !== templateId) {
    upsertSearchAttributes([{ key: TemplateAttr, value: templateId }]);
  }
}
