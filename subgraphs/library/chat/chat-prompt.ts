import type { GroundedQuestion } from './answerer.js';
import type { UpstreamMessage } from './llm-client.js';

/** The instruction that keeps an LLM to the library's passages. */
export const GROUNDING_INSTRUCTION = [
  'You answer questions about the texts of an Arabic digital library.',
  'Use only the numbered passages below; do not add anything from other knowledge.',
  'Cite the passages you use by their number in square brackets, for example [1] or [2][3].',
  'If the passages do not contain the answer, say plainly that the library texts do not answer the question.',
  'Answer in the language of the question.',
].join(' ');

/** The passages as the instruction numbers them: `[n] book — part (page id)` and the passage text. */
export function passagesBlock(question: GroundedQuestion): string {
  return question.grounding.sources
    .map(({ ref, passage }) => `[${ref}] ${passage.book} — ${passage.part} (${passage.id})\n${passage.text.trim()}`)
    .join('\n\n');
}

/**
 * The upstream conversation: the grounding instruction with the passages, the client's
 * own system (or developer) messages after it, then the user and assistant turns. Tool
 * messages are left out: the library offers no tools.
 */
export function buildPrompt(question: GroundedQuestion): UpstreamMessage[] {
  const messages: UpstreamMessage[] = [{ role: 'system', content: `${GROUNDING_INSTRUCTION}\n\nPassages:\n\n${passagesBlock(question)}` }];
  for (const message of question.request.messages) {
    if (message.role === 'system' || message.role === 'developer') messages.push({ role: 'system', content: message.content });
    else if (message.role === 'user' || message.role === 'assistant') messages.push({ role: message.role, content: message.content });
  }
  return messages;
}
