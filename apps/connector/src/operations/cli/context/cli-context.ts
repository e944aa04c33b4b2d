import type { Command } from 'commander';
import { ConfigError, type Env } from '#lib/config';
import {
  type ConnectorConfig,
  loadConnectorConfig,
  type ShopConfig,
} from '../../../platform/config/connector.config.js';
import { Shops } from '../../../shops/shops.js';
import { AdminApi } from './admin-api.js';
import { CliError, ExitCode } from './cli-error.js';

/** Where a command writes: results on stdout, problems and progress on stderr. */
export interface CliOutput {
  line(text?: string): void;
  warn(text: string): void;
  /** The stream the progress bar draws on. */
  readonly progress: NodeJS.WriteStream;
}

/** What every command works with: the configuration (read once), the admin API, the output. */
export interface CliContext {
  readonly config: ConnectorConfig;
  readonly admin: AdminApi;
  readonly out: CliOutput;
  /** The shop a command is about: `--shop`, or the only configured shop. */
  shop(domain: string | undefined): ShopConfig;
  /** The shops a command covers: `--shop`, or every configured shop. */
  shops(domain: string | undefined): ShopConfig[];
}

/** Gives a command its context; the configuration is read on first use (so `--help` needs none). */
export type ContextOf = (command: Command) => CliContext;

/**
 * Builds the context factory for one run of the command line: environment -> config, once, with
 * a configuration error reported as one line (exit 1), and the admin API at `--url` (default:
 * the connector on this machine at `CONNECTOR_ADMIN_PORT`, else `PORT`, the local stack's 3000).
 */
export function contextFactory(env: Env, out: CliOutput): ContextOf {
  let config: ConnectorConfig | undefined;
  const load = (): ConnectorConfig => {
    if (config) return config;
    try {
      config = loadConnectorConfig(env);
      return config;
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError(`configuration: ${error.message}`);
      throw error;
    }
  };
  return (command) => {
    const loaded = load();
    const given = command.optsWithGlobals<{ url?: string }>().url;
    const port = loaded.http.adminListener?.port || loaded.http.port;
    const url = (given ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');
    return {
      config: loaded,
      admin: new AdminApi(url, loaded.admin.token),
      out,
      shop(domain) {
        if (domain !== undefined) return known(loaded, domain);
        if (loaded.shops.length === 1) return loaded.shops[0] as ShopConfig;
        throw new CliError(
          `several shops are configured (${loaded.shops.map((s) => s.domain).join(', ')}): say which with --shop`,
          ExitCode.USAGE,
        );
      },
      shops(domain) {
        return domain === undefined ? loaded.shops : [known(loaded, domain)];
      },
    };
  };
}

function known(config: ConnectorConfig, domain: string): ShopConfig {
  const shop = new Shops(config.shops).find(domain);
  if (!shop) {
    throw new CliError(
      `${domain} is not a configured shop (CONNECTOR_SHOPS: ${config.shops.map((s) => s.domain).join(', ')})`,
      ExitCode.USAGE,
    );
  }
  return shop;
}
