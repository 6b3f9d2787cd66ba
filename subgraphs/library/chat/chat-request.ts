import type { LibraryChatInputData } from '../../../contracts/library/chat-types.js';
import { LibraryError, type ParameterProblem } from '../library-errors.js';

/** Roles of the chat-completions format; `developer` is the newer name of `system`. */
export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** A chat request as the contract admits it (JSON types only); problems are reported with the wire's parameter names. */
export type ChatInput = LibraryChatInputData;
/** A message as it arrives, before the service's checks (GraphQL input, or a stream's JSON input). */
export type ChatMessageInput = NonNullable<ChatInput['messages']>[number];

export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
}

/** Sampling options an LLM upstream honours; the extractive answerer honours `maxTokens` only. */
export interface SamplingOptions {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
  readonly seed?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly sampling: SamplingOptions;
}

const MAX_MESSAGES = 100;
const MAX_CONTENT_CHARS = 32_000;
const MAX_STOP = 4;

/** A number within [min, max] (an integer when asked), or a problem for `field`. */
function bounded(problems: ParameterProblem[], field: string, value: number | null | undefined, min: number, max: number, integer = false) {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    problems.push({ field, message: `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}` });
    return undefined;
  }
  return value;
}

function message(problems: ParameterProblem[], item: ChatMessageInput | null | undefined, index: number): ChatMessage | undefined {
  const at = `messages[${index}]`;
  if (typeof item !== 'object' || item === null) {
    problems.push({ field: at, message: 'must be an object with role and content' });
    return undefined;
  }
  const { role, content } = item;
  const before = problems.length;
  if (role === null || role === undefined) problems.push({ field: `${at}.role`, message: 'is required' });
  else if (typeof role !== 'string' || !(CHAT_ROLES as readonly string[]).includes(role)) {
    problems.push({ field: `${at}.role`, message: `must be one of ${CHAT_ROLES.join(', ')}` });
  }
  if (content === null || content === undefined) problems.push({ field: `${at}.content`, message: 'is required' });
  else if (typeof content !== 'string') problems.push({ field: `${at}.content`, message: 'must be a string' });
  else if (content.length > MAX_CONTENT_CHARS)
    problems.push({ field: `${at}.content`, message: `must be at most ${MAX_CONTENT_CHARS} characters` });
  return problems.length === before ? { role: role as ChatRole, content: content as string } : undefined;
}

function messagesOf(problems: ParameterProblem[], input: ChatInput['messages']): ChatMessage[] {
  if (input === null || input === undefined) {
    problems.push({ field: 'messages', message: 'is required' });
    return [];
  }
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_MESSAGES) {
    problems.push({ field: 'messages', message: `must be an array of 1 to ${MAX_MESSAGES} messages` });
    return [];
  }
  const messages = input.map((item, index) => message(problems, item, index)).filter((item) => item !== undefined);
  if (messages.length === input.length && !messages.some((item) => item.role === 'user' && item.content.trim() !== '')) {
    problems.push({ field: 'messages', message: 'must contain a user message with a question' });
  }
  return messages;
}

/**
 * Validates a chat request: every problem is listed at once, as `invalid_parameter`
 * (422) naming the parameter (`messages[1].content`, `temperature`). Optional fields
 * of the format that the library does not use are not part of the input at all.
 */
export function parseChatRequest(input: ChatInput, models: readonly string[]): ChatRequest {
  const problems: ParameterProblem[] = [];
  const model = input.model ?? models[0]!;
  if (!models.includes(model)) problems.push({ field: 'model', message: `must be one of ${models.join(', ')}` });
  const messages = messagesOf(problems, input.messages);
  if (input.n !== null && input.n !== undefined && input.n !== 1) problems.push({ field: 'n', message: 'only 1 choice is supported' });
  const stop = input.stop ?? undefined;
  if (stop && (stop.length > MAX_STOP || stop.some((item) => typeof item !== 'string' || item === ''))) {
    problems.push({ field: 'stop', message: `must be up to ${MAX_STOP} non-empty strings` });
  }
  const sampling: SamplingOptions = {
    temperature: bounded(problems, 'temperature', input.temperature, 0, 2),
    topP: bounded(problems, 'top_p', input.topP, 0, 1),
    maxTokens: bounded(problems, 'max_tokens', input.maxTokens, 1, 2_147_483_647, true),
    stop: stop && stop.length > 0 ? stop : undefined,
    seed: bounded(problems, 'seed', input.seed, -2_147_483_648, 2_147_483_647, true),
    presencePenalty: bounded(problems, 'presence_penalty', input.presencePenalty, -2, 2),
    frequencyPenalty: bounded(problems, 'frequency_penalty', input.frequencyPenalty, -2, 2),
  };
  if (problems.length > 0) throw LibraryError.invalidParameters(problems);
  return { model, messages, sampling };
}
