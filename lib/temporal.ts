// Temporal connection settings shared by the API (client) and workers.
import { Client, Connection } from '@temporalio/client';
import type { Env } from './env.js';

export function connectionOptions(e: Env) {
  return {
    address: e.TEMPORAL_ADDRESS,
    tls: e.TEMPORAL_TLS ? {} : undefined,
    apiKey: e.TEMPORAL_API_KEY,
  };
}

export async function createTemporalClient(e: Env): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect(connectionOptions(e));
  return { client: new Client({ connection, namespace: e.TEMPORAL_NAMESPACE }), connection };
}

export const workflowIds = {
  extraction: (extractionId: string) => `extraction-${extractionId}`,
  flowRun: (runId: string) => `flow-run-${runId}`,
  webhookDelivery: (deliveryId: string) => `webhook-${deliveryId}`,
};
