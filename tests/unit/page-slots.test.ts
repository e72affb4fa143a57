import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapInSlots, mapLimited, PageSlots } from '../../activities/documents/ocr/pool.js';

/** A job that records how many jobs run at once and finishes when `release` is called for it. */
function tracker() {
  let running = 0;
  const state = { peak: 0, started: [] as string[], finish: new Map<string, () => void>() };
  const job = (name: string) =>
    new Promise<string>((resolve) => {
      running++;
      state.peak = Math.max(state.peak, running);
      state.started.push(name);
      state.finish.set(name, () => {
        running--;
        resolve(name);
      });
    });
  return { state, job };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('PageSlots', () => {
  it('lets no more than its size run at once across documents, serving waiters in arrival order', async () => {
    const slots = new PageSlots(2);
    const { state, job } = tracker();
    const first = mapInSlots(['a1', 'a2', 'a3'], slots, (page) => job(page));
    await tick();
    const second = mapInSlots(['b1'], slots, (page) => job(page));
    await tick();
    assert.deepEqual(state.started, ['a1', 'a2']);
    state.finish.get('a1')!();
    await tick();
    // a3 asked for its slot when a1's finished, after b1 was already waiting
    assert.deepEqual(state.started, ['a1', 'a2', 'b1']);
    state.finish.get('a2')!();
    await tick();
    assert.deepEqual(state.started, ['a1', 'a2', 'b1', 'a3']);
    state.finish.get('b1')!();
    state.finish.get('a3')!();
    assert.deepEqual(await first, ['a1', 'a2', 'a3']);
    assert.deepEqual(await second, ['b1']);
    assert.equal(state.peak, 2);
  });

  it('frees the slot of a job that fails', async () => {
    const slots = new PageSlots(1);
    await assert.rejects(slots.run(() => Promise.reject(new Error('unreadable'))), /unreadable/);
    assert.equal(await slots.run(() => Promise.resolve('next')), 'next');
  });
});

describe('mapLimited', () => {
  it('starts nothing after a failure and rejects only once the running jobs have settled', async () => {
    const settled: number[] = [];
    const started: number[] = [];
    const result = mapLimited([0, 1, 2, 3], 2, async (n) => {
      started.push(n);
      if (n === 0) throw new Error('page 1 failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      settled.push(n);
      return n;
    });
    await assert.rejects(result, /page 1 failed/);
    assert.deepEqual(started, [0, 1]);
    assert.deepEqual(settled, [1]);
  });
});
