// Histories recorded by real runs replay against today's workflow code: a change to the commands
// a workflow issues must be guarded (patched) so that runs started before a deploy continue.
//   extraction-remote-bookkeeping: recorded before bookkeeping became local activities
//   extraction-local-bookkeeping:  recorded after
//   extraction-two-activities-auto: template_id=auto (the template recorded between the two
//                                   activities), before the read and the write became one activity
//   extraction-one-activity-auto:   the same upload, recorded after
//   extraction-small-local-auto:    a one-page PDF with template_id=auto, recorded after small
//                                   documents were read in a local activity (one workflow task)
//   extraction-one-marker-auto:     the same kind of upload, recorded after a run of the current
//                                   shape became one patch marker instead of three
// The fixtures are binary protobuf (History.encode of WorkflowHandle.fetchHistory()): the CLI's
// JSON form needs historyFromJSON, which fails with two copies of protobufjs installed.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

const histories = new URL('../fixtures/histories/', import.meta.url);
let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
const workflowBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('../../workflows/index.ts', import.meta.url)), logger: undefined }));

async function replay(name: string): Promise<{ activities: string[]; markers: string[]; upserts: number }> {
  const history = proto.temporal.api.history.v1.History.decode(await readFile(new URL(`${name}.binpb`, histories)));
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, name);
  const events = history.events ?? [];
  return {
    activities: events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []),
    markers: events.flatMap((e) => e.markerRecordedEventAttributes?.markerName ?? []),
    upserts: events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes).length,
  };
}

test('an extraction recorded with bookkeeping as activities replays on the current code', async () => {
  const { activities } = await replay('extraction-remote-bookkeeping');
  assert.deepEqual(activities, ['analyzeDocument', 'loadTables', 'completeExtraction', 'publishExtractionEvent', 'optimizeRows']);
});

test('an extraction recorded with local bookkeeping replays: two activities, the outcome as markers', async () => {
  const { activities, markers } = await replay('extraction-local-bookkeeping');
  assert.deepEqual(activities, ['analyzeDocument', 'loadTables']);
  assert.deepEqual(markers, ['core_patch', 'core_local_activity', 'core_local_activity']);
});

test('an auto-template extraction recorded with two document activities replays, its template recorded between them', async () => {
  const { activities, upserts } = await replay('extraction-two-activities-auto');
  assert.deepEqual(activities, ['analyzeDocument', 'loadTables']);
  // the patch's version, the chosen template, the final status
  assert.equal(upserts, 3);
});

test('an auto-template extraction recorded with one document activity replays', async () => {
  const { activities, markers, upserts } = await replay('extraction-one-activity-auto');
  assert.deepEqual(activities, ['extractDocument']);
  assert.deepEqual(markers, ['core_patch', 'core_patch', 'core_local_activity', 'core_local_activity']);
  assert.equal(upserts, 4);
});

test('an auto-template extraction of a small document, read in a local activity, replays: no activity task, one workflow task', async () => {
  const { activities, markers, upserts } = await replay('extraction-small-local-auto');
  assert.deepEqual(activities, []);
  assert.deepEqual(markers, ['core_patch', 'core_patch', 'core_patch', 'core_local_activity', 'core_local_activity', 'core_local_activity']);
  assert.equal(upserts, 5);
});

test('an extraction of the current shape replays with one patch marker and its three local activities', async () => {
  const { activities, markers, upserts } = await replay('extraction-one-marker-auto');
  assert.deepEqual(activities, []);
  assert.deepEqual(markers, ['core_patch', 'core_local_activity', 'core_local_activity', 'core_local_activity']);
  // the patch's version, the chosen template, the final status
  assert.equal(upserts, 3);
});
