import type { EntityManager } from '@mikro-orm/postgresql';

/** Values bound into SQL text that the driver would otherwise spread or misread. */

/** A PostgreSQL array literal (bind with `?::text[]` or `?::uuid[]`): every element quoted and escaped. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** The name of the unique index a statement violated, or undefined for any other error. */
export function violatedUnique(error: unknown): string | undefined {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23505' ? (constraint ?? '') : undefined;
}

/** Flushes the entity manager; a unique index violated by the flush is answered with `refusal()` instead. */
export async function flushUnique(em: EntityManager, refusal: () => Error): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (violatedUnique(error) !== undefined) throw refusal();
    throw error;
  }
}
