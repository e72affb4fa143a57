import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TemporalFailure } from '@temporalio/workflow';

/** The message a user should read for a failure, unwrapping activity and child failures. */
export function failureMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof ActivityFailure || current instanceof ChildWorkflowFailure) {
    if (!current.cause) break;
    current = current.cause;
  }
  if (current instanceof ApplicationFailure || current instanceof TemporalFailure) return current.message;
  if (current instanceof Error) return current.message;
  return String(current);
}
