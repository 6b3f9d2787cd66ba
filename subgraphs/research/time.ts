/** A database time as the driver hands it over (`timestamptz` as text, or a Date). */
export type DbTime = string | Date;

/** A database time as ISO 8601. */
export const isoTime = (value: DbTime): string => new Date(value).toISOString();

/** A nullable database time as ISO 8601. */
export const isoTimeOrNull = (value: DbTime | null): string | null => (value === null ? null : isoTime(value));
