import type { z } from 'zod';

/**
 * One declaration per domain event an operations module publishes through the outbox: its
 * type (`eam.asset.created`), what it reports and its payload. An event is either
 * published by the operation pipeline after a successful call of the operation it names
 * (`operation`: the payload is that operation's result, in the call's transaction), or
 * by a service itself (`payload` given). The AsyncAPI document, the webhook
 * subscription check and the publisher all read these declarations
 * (docs/adr/0034-domain-events.md).
 */
export interface EventDeclaration {
  /** Dot-separated, lower case: `<module>.<entity>.<what happened>`. */
  readonly name: string;
  readonly summary: string;
  /** The mutation after whose success the pipeline publishes the event, its result as the payload. */
  readonly operation?: string;
  /** The payload of an event a service publishes itself. */
  readonly payload?: z.ZodType;
}

export type EventContract = EventDeclaration;

const NAME = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+$/;

export function defineEvent(declaration: EventDeclaration): EventContract {
  if (!NAME.test(declaration.name)) throw new Error(`event ${declaration.name}: the name must be dot-separated lower-case words`);
  if (!declaration.operation === !declaration.payload) {
    throw new Error(`event ${declaration.name}: declare either the operation that publishes it or its payload`);
  }
  return declaration;
}

/**
 * The events the pipeline publishes for one entity's mutations: `{ created: 'eamCreateAsset' }`
 * declares `eam.asset.created`, published after `eamCreateAsset`.
 */
export function operationEvents(prefix: string, entity: string, operations: Readonly<Record<string, string>>): EventContract[] {
  return Object.entries(operations).map(([what, operation]) =>
    defineEvent({ name: `${prefix}.${what}`, summary: `${entity} ${what.replace(/-/g, ' ')}`, operation }),
  );
}

/** Whether a subscription pattern (`*`, an exact type or a prefix wildcard `eam.asset.*`) matches an event type. */
export function patternMatches(pattern: string, type: string): boolean {
  if (pattern === '*' || pattern === type) return true;
  return pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1));
}
