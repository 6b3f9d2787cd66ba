import { cursorLists } from '../../shared/cursor-list.js';
import { OperationsError } from '../operations.errors.js';

/** The shared cursor lists (subgraphs/shared/cursor-list.ts), refusing a cursor with the operations 422 Problem. */
export const { cursorList, entityCursorList } = cursorLists((message) => OperationsError.invalid('cursor', message));
