// The stages of a turn after its session opens, as one module: `jp query` imports it once the
// query is known (commands/query.ts), so `jp q` with no text opens the editor without them. One
// module, not one dynamic import per stage: each dynamic import is an entry of the bundle, and
// more entries cut the shared code into more chunks, each one more module for Node to load. Eight
// imports here cost an echo query about 16 ms (docs/performance.md, "Issue 45 (Y): one import").
export { openTurn } from './open-turn.ts';
export { compactBeforeSending } from '../compaction/compact-for-query.ts';
export { explainTurn } from './explain-turn.ts';
export { storeBlobsEarly } from '../store/store-blobs-early.ts';
export { answerTurn } from './answer-turn.ts';
export { persistTurn } from './persist-turn.ts';
export { reportQuery } from './report-query.ts';
export { refreshListingInBackground } from '../models/refresh-in-background.ts';
