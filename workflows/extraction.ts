// One extraction: analyze the document, load its tables, record the outcome. Every status
// change after `processing` is made here; activities keep the Postgres projection in step.
import { ApplicationFailure, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
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

const bookkeeping = proxyActivities<ExtractionActivities>({
  startToCloseTimeout: BOOKKEEPING_TIMEOUT,
  retry: { initialInterval: '1s', maximumInterval: '30s', backoffCoefficient: 2 },
});

const maintenance = proxyActivities<ExtractionActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 2 },
});

const documentWork = proxyActivities<ExtractionActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2s', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['DocumentError', 'NoTemplateMatch', 'NotFound'] },
});

export async function extractionWorkflow({ extractionId }: ExtractionInput): Promise<ExtractionOutcome> {
  let rows: number;
  try {
    const { templateId } = await documentWork.analyzeDocument({ extractionId });
    if (workflowInfo().typedSearchAttributes.get(TemplateAttr) !== templateId) {
      upsertSearchAttributes([{ key: TemplateAttr, value: templateId }]);
    }
    ({ rows } = await documentWork.loadTables({ extractionId }));
    await bookkeeping.completeExtraction({ extractionId });
    upsertSearchAttributes([{ key: StatusAttr, value: 'completed' }]);
    await notifyExtraction(extractionId, 'extraction.completed');
  } catch (error) {
    const message = failureMessage(error);
    await bookkeeping.failExtraction({ extractionId, message });
    upsertSearchAttributes([{ key: StatusAttr, value: 'failed' }]);
    await notifyExtraction(extractionId, 'extraction.failed');
    // Fail the workflow too, so the Web UI shows what the API shows.
    throw ApplicationFailure.nonRetryable(message, 'ExtractionFailed');
  }
  // Housekeeping after the outcome is recorded: its failure changes nothing for the user.
  await maintenance.optimizeRows({ rows }).catch(() => undefined);
  return { extractionId, status: 'completed' };
}

