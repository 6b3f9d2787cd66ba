import { libraryRetrieve, librarySearch } from '../../../contracts/library/content.contract.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import type { Services } from '../../shared/subgraph.js';
import { RetrievalService, type RetrievalResult } from './retrieval.service.js';

const withCount = (found: RetrievalResult) => ({ ...found, passages: [...found.passages], returned: found.passages.length });

/** Passage retrieval and page search, bounded by the caller's plan. */
export function retrievalOperations(services: Services): Implementation[] {
  const retrieval = services.get(RetrievalService);
  return [
    implement(libraryRetrieve, async (input, { ctx, caller }) =>
      withCount(await retrieval.retrieve(ctx.em, { ...input, withPageText: input.pageText }, caller.limits.maxLimit)),
    ),
    implement(librarySearch, async (input, { ctx, caller }) => withCount(await retrieval.search(ctx.em, input, caller.limits.maxLimit))),
  ];
}
