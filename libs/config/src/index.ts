export { ConfigError, type Env, EnvReader, loadConfig } from './env-reader.js';
