/**
 * The group commit: the orders of one account share one transaction (batcher.ts), and the calls they
 * make on it share one statement (gathering.ts). README.md: glossary, sequence, the callback rules.
 */
export {
  type BatchKey,
  CommitOutcomeUnknown,
  createGroupCommit,
  type GroupCommit,
  type GroupCommitOptions,
  StatementRefused,
} from './batcher.ts';
export { createGathering } from './gathering.ts';
