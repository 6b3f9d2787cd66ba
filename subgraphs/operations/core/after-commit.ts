export { afterCommit, withAfterCommit } from '../../shared/after-commit.js';
