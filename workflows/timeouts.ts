// Bookkeeping activities are a few Postgres statements and take milliseconds. Their
// start-to-close timeout is also how long the server waits before retrying one whose worker died
// mid-call (nothing heartbeats sooner), and the workflow stands still until then: kept short, a
// worker crash costs a run seconds, not a minute (a reviewer's decision waits on it).
export const BOOKKEEPING_TIMEOUT = '15 seconds';
