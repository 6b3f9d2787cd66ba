/** "Now", injectable so tests can move through minutes and UTC days without waiting. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** The counting windows a moment falls in: its minute (epoch minutes) and its UTC day. */
export interface Windows {
  /** `YYYY-MM-DD` of the UTC day. */
  readonly day: string;
  /** Minutes since the epoch; UTC days are whole minutes, so a minute never spans two days. */
  readonly minute: number;
  /** Epoch seconds when the minute window ends. */
  readonly minuteReset: number;
  /** Epoch seconds of the next UTC midnight. */
  readonly dayReset: number;
  /** Epoch seconds of the moment itself. */
  readonly nowSeconds: number;
}

export function windowsAt(now: Date): Windows {
  const ms = now.getTime();
  const minute = Math.floor(ms / 60_000);
  const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return {
    day: now.toISOString().slice(0, 10),
    minute,
    minuteReset: (minute + 1) * 60,
    dayReset: nextMidnight / 1000,
    nowSeconds: Math.floor(ms / 1000),
  };
}

/** Whole seconds until `resetSeconds`, at least 1 (a `Retry-After` of 0 invites a hot loop). */
export function secondsUntil(resetSeconds: number, now: Date): number {
  return Math.max(1, Math.ceil(resetSeconds - now.getTime() / 1000));
}

/** `YYYY-MM-DD` of the UTC day `offset` days before `day`. */
export function daysBefore(day: string, offset: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - offset);
  return date.toISOString().slice(0, 10);
}
