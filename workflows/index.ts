// The workflow bundle's entry: every workflow type the worker runs.
export { extractionWorkflow } from './extraction.js';
