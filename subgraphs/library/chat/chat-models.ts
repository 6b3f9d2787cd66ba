/** The library's own model: retrieval plus whichever answerer is configured. */
export const LIBRARY_MODEL = 'library-rag';

/** When the chat models were first published (2026-11-22, epoch seconds), as `/v1/models` reports `created`. */
const PUBLISHED = 1_795_305_600;

export interface ChatModel {
  readonly id: string;
  readonly created: number;
  readonly ownedBy: string;
}

/**
 * The models a request may name: `library-rag` first (the default), and the upstream's
 * model when an LLM is configured. Both answer through the configured answerer and
 * only from library passages; the name is echoed in the response.
 */
export function chatModels(llmModel: string | undefined): readonly ChatModel[] {
  const models: ChatModel[] = [{ id: LIBRARY_MODEL, created: PUBLISHED, ownedBy: 'qantara-library' }];
  if (llmModel && llmModel !== LIBRARY_MODEL) models.push({ id: llmModel, created: PUBLISHED, ownedBy: 'qantara-library (upstream)' });
  return models;
}
