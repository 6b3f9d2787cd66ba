/** The entities of the operations domain modules (eam, fuel, scm, hr, documents, prd). */
export const DOMAIN_ENTITIES = [] as const;
