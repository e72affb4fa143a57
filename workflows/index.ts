// The workflow bundle's entry: every workflow type the worker runs.
export { extractionWorkflow } from './extraction.js';
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { flowRunWorkflow } from './flow-run.js';
