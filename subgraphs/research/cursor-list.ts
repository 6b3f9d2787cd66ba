import { cursorLists } from '../shared/cursor-list.js';
import { ResearchError } from './research.errors.js';

/** The shared cursor lists (subgraphs/shared/cursor-list.ts), refusing a cursor with the research 422 body. */
export const { cursorList, entityCursorList } = cursorLists((message) => ResearchError.invalid('cursor', message));

/** A research id: its kind, then 16 letters and digits (`newId`). */
export const researchId = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{16}$`);
