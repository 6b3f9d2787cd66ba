/** The health data every subgraph returns, as the named operations select it. */
export interface HealthData {
  readonly service: string;
  readonly status: 'ok' | 'down';
  readonly version: string;
  readonly checkedAt: string;
  readonly components: ReadonlyArray<{ name: string; up: boolean; detail: string | null; latencyMs: number | null }>;
}

/** Components keyed by name, for bodies that list dependency states. */
export function componentsByName(
  health: HealthData,
): Record<string, { status: 'up' | 'down'; detail: string | null; latencyMs: number | null }> {
  return Object.fromEntries(
    health.components.map((component) => [
      component.name,
      { status: component.up ? 'up' : 'down', detail: component.detail, latencyMs: component.latencyMs },
    ]),
  );
}
