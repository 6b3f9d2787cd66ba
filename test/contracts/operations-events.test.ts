import { describe, expect, it } from 'vitest';
import { OPERATIONS_EVENTS } from '../../contracts/operations/events/catalog.js';
import { patternMatches } from '../../contracts/operations/events/event.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import { webhookEventTypes } from '../../contracts/operations/webhooks-types.js';
import { eventsOf } from '../../subgraphs/operations/core/domain-events.js';

/** The modules whose every state change is an event (issue: events and notifications). */
const DOMAIN_TAGS = /^(eam|scm|hr|prd|core: documents|core: reference books)(:|$)/;

/** Mutations whose service publishes their event itself (its payload differs from the result), and the event. */
const PUBLISHED_BY_SERVICE: Readonly<Record<string, string>> = {
  scmSubmitFuelSupplyRequest: 'scm.fuel.supply-request.submitted',
  prdRejectShiftReport: 'prd.shift-report.rejected',
  scmUpdateSupplierBankAccount: 'scm.supplier.updated',
};

/** A committed import publishes `core.reference-book.imported`; a preview changes no record (working data). */
const isImport = (name: string) => /^commit.*Import(ByPath)?$/.test(name);
const isPreview = (name: string) => /^preview.*Import$/.test(name);

describe('operations events', () => {
  it('publish after each mutation they name, and every named operation is a mutation of the service', () => {
    const mutations = new Map(OPERATIONS_CONTRACTS.filter((contract) => contract.kind === 'mutation').map((c) => [c.name, c]));
    for (const event of OPERATIONS_EVENTS.filter((candidate) => candidate.operation)) {
      expect(mutations.has(event.operation!), event.name).toBe(true);
      expect(eventsOf(event.operation!), event.name).toContain(event.name);
    }
    expect(eventsOf('eamCreateAsset')).toEqual(['eam.asset.created']);
    expect(eventsOf('iamLogin')).toEqual([]);
  });

  it('cover every state change of the domain modules', () => {
    const names = new Set(OPERATIONS_EVENTS.map((event) => event.name));
    const silent = OPERATIONS_CONTRACTS.filter(
      (contract) => contract.kind === 'mutation' && contract.tags.some((tag) => DOMAIN_TAGS.test(tag)) && !isPreview(contract.name),
    ).filter((contract) => {
      if (eventsOf(contract.name).length > 0) return false;
      if (isImport(contract.name)) return !names.has('core.reference-book.imported');
      const own = PUBLISHED_BY_SERVICE[contract.name];
      return !own || !names.has(own);
    });
    expect(silent.map((contract) => contract.name)).toEqual([]);
  });

  it('match subscription patterns exactly, by prefix wildcard or with *', () => {
    expect(patternMatches('*', 'eam.asset.created')).toBe(true);
    expect(patternMatches('eam.asset.created', 'eam.asset.created')).toBe(true);
    expect(patternMatches('eam.asset.*', 'eam.asset.created')).toBe(true);
    expect(patternMatches('eam.*', 'eam.asset.created')).toBe(true);
    expect(patternMatches('eam.asset.*', 'eam.asset-class.created')).toBe(false);
    expect(patternMatches('eam.asset', 'eam.asset.created')).toBe(false);
    expect(patternMatches('asset.*', 'eam.asset.created')).toBe(false);
  });

  it('let a subscription name only patterns that match a declared event', () => {
    expect(webhookEventTypes().safeParse(['eam.asset.*', '*', 'scm.fuel.supply-request.submitted']).success).toBe(true);
    const refused = webhookEventTypes().safeParse(['eam.asset.*', 'eam.assets.*']);
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.path)).toEqual([[1]]);
  });
});
