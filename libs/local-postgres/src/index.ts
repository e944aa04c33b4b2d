export {
  freePort,
  type LocalPostgres,
  type LocalPostgresOptions,
  startLocalPostgres,
} from './local-postgres.js';
