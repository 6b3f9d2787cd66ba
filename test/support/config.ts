import { expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../runtime/config.js';

/** The `ConfigError` that `env` makes `loadConfig` throw; any other outcome fails. */
export function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** One case of a refused setting: the environment, the variable the error names, and its message. */
export type RefusedSetting = readonly [env: Record<string, string>, variable: string, message: string];

/** One test per case: `loadConfig` refuses the environment with a `ConfigError` naming the variable, in these words. */
export function itRejectsNamingTheVariable(cases: readonly RefusedSetting[]): void {
  it.each(cases)('rejects %o naming the variable', (env, variable, message) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toBe(message);
  });
}
