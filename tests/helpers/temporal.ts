// A client of the test stack's real Temporal server, for tests that read workflow state and
// history or send signals. Close its connection when done.
import { Client, Connection } from '@temporalio/client';

export async function temporalClient(): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  return { connection, client: new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE! }) };
}
