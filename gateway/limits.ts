import type { GraphQLArmorConfig } from '@escape.tech/graphql-armor-types';

/**
 * Operation limits enforced by the gateway before planning (graphql-armor).
 * Values are documented in README; raise one only with a benchmark behind it.
 */
export const GATEWAY_LIMITS = {
  /** Deepest selection nesting, fragments expanded. */
  maxDepth: 12,
  /** Estimated cost: objects 2, scalars 1, depth multiplies by 1.5. */
  maxCost: 5000,
  /** Aliases per operation. */
  maxAliases: 15,
  /** Lexical tokens per document. */
  maxTokens: 2000,
  /** Directives per operation. */
  maxDirectives: 50,
} as const;

/** What replaces a field suggestion (`Did you mean "…"`) in an error message: armor's own default, named here. */
export const SUGGESTION_MASK = '[Suggestion hidden]';

export const ARMOR_CONFIG: GraphQLArmorConfig = {
  maxDepth: { n: GATEWAY_LIMITS.maxDepth, ignoreIntrospection: true, exposeLimits: true },
  costLimit: {
    maxCost: GATEWAY_LIMITS.maxCost,
    objectCost: 2,
    scalarCost: 1,
    depthCostFactor: 1.5,
    ignoreIntrospection: true,
    exposeLimits: true,
  },
  maxAliases: { n: GATEWAY_LIMITS.maxAliases, exposeLimits: true },
  // Counted by graphql-js's own parser instead (`parseOptions` in create-gateway.ts): armor's
  // Apollo plugin parses the document a second time and turns every syntax error into a 500.
  maxTokens: { enabled: false },
  maxDirectives: { n: GATEWAY_LIMITS.maxDirectives, exposeLimits: true },
  blockFieldSuggestion: { enabled: true, mask: SUGGESTION_MASK },
};
