import { ConfigError, loadConfig, type Config } from './config.js';

/** The configuration of an entry point; a bad value ends the process with one line naming it. */
export function configOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`qantara: invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
}
