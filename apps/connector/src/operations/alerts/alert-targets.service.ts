import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { EncryptionSettings } from '../../platform/config/settings.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { TokenCipher } from '../../shops/token-cipher.js';
import { AlertDeliveryError } from './alert-delivery.error.js';
import type { AlertTarget, AlertTargetKind } from './alert-target.entity.js';
import { AlertTargetsRepository } from './alert-targets.repository.js';

/** Shortest signing secret taken from an operator (a generated one is 32 random bytes). */
export const MIN_SECRET_LENGTH = 16;
const SECRET = new RegExp(`^\\S{${MIN_SECRET_LENGTH},256}$`);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A target to add, as the operator gives it. */
export interface AlertTargetInput {
  kind: AlertTargetKind;
  url: string;
  label?: string;
  /** One shop the connector serves; null or absent: every shop. */
  shop?: string | null;
  /** A webhook's signing secret; absent: one is generated and shown once. */
  secret?: string;
}

/** A target as the lists show it: never its full URL, never its secret. */
export interface AlertTargetView {
  id: string;
  label: string;
  kind: AlertTargetKind;
  shop: string | null;
  /** The URL's origin only (a Slack URL is its own credential). */
  url: string;
  signed: boolean;
  createdAt: Date;
  /** Why it cannot be delivered to (its URL or secret under a key no longer configured); null: none. */
  problem: string | null;
}

/**
 * Why: the operators' notification targets (`/admin/alert-targets`, `connector alerts`, the web
 * view). A target's URL and signing secret are stored encrypted with the shops' secrets' cipher
 * (`CONNECTOR_ENCRYPTION_KEYS`); a generated secret is shown once, in the answer that adds it,
 * and one the operator gave is never shown. Only HTTPS URLs are taken, and plain HTTP to this
 * machine (a local receiver).
 */
@Injectable()
export class AlertTargets {
  private readonly cipher: TokenCipher;

  constructor(
    private readonly rows: AlertTargetsRepository,
    private readonly shops: Shops,
    private readonly clock: Clock,
    encryption: EncryptionSettings,
  ) {
    this.cipher = new TokenCipher(encryption.keys);
  }

  /** Adds a target; the secret in the answer is the generated one (null when the operator gave it, or Slack). */
  async add(input: AlertTargetInput): Promise<{ target: AlertTargetView; secret: string | null }> {
    const url = checkedUrl(input.url);
    const shop = this.shopOf(input.shop ?? null);
    if (input.kind === 'slack' && input.secret !== undefined) {
      throw badRequest('secret', 'A Slack target takes no secret: its URL is its credential.');
    }
    if (input.secret !== undefined && !SECRET.test(input.secret)) {
      throw badRequest('secret', `secret must be ${MIN_SECRET_LENGTH} to 256 characters without spaces.`);
    }
    if (this.cipher.currentKeyId === null) {
      throw new ConnectorError(
        ConnectorErrorCode.BAD_REQUEST,
        "CONNECTOR_ENCRYPTION_KEYS is not set: an alert target's URL and secret are stored encrypted. Set it (openssl rand -base64 32) and restart.",
        { parameter: 'url', setting: 'CONNECTOR_ENCRYPTION_KEYS' },
      );
    }
    const generated = input.kind === 'webhook' && input.secret === undefined;
    const secret = input.kind === 'slack' ? null : (input.secret ?? randomBytes(32).toString('base64url'));
    const row = await this.rows.add({
      label: input.label?.trim().slice(0, 100) || `${input.kind} ${url.host}`,
      kind: input.kind,
      shop,
      url: this.cipher.encrypt(url.toString()),
      urlShown: `${url.origin}/…`,
      secret: secret === null ? null : this.cipher.encrypt(secret),
      createdAt: new Date(this.clock.now()),
    });
    return { target: this.view(row), secret: generated ? secret : null };
  }

  async list(): Promise<AlertTargetView[]> {
    return (await this.rows.all()).map((row) => this.view(row));
  }

  /** Removes a target; whether it existed. */
  remove(id: string): Promise<boolean> {
    return /^[1-9]\d{0,18}$/.test(id) ? this.rows.remove(id) : Promise.resolve(false);
  }

  /** The targets told about a shop. */
  forShop(shop: string): Promise<AlertTarget[]> {
    return this.rows.forShop(shop);
  }

  get(id: string): Promise<AlertTarget | null> {
    return this.rows.get(id);
  }

  /** A target's URL and secret in clear, for one delivery; a value no configured key opens fails it for good. */
  open(target: AlertTarget): { url: string; secret: string | null } {
    try {
      return {
        url: this.cipher.decrypt(target.url),
        secret: target.secret === null ? null : this.cipher.decrypt(target.secret),
      };
    } catch (error) {
      throw new AlertDeliveryError(
        'alert_target_unreadable',
        `Alert target ${target.id} (${target.label}) cannot be read: ${(error as Error).message}. Remove it and add it again.`,
        false,
      );
    }
  }

  private view(row: AlertTarget): AlertTargetView {
    const keys = [row.url, ...(row.secret === null ? [] : [row.secret])].map((v) => TokenCipher.keyIdOf(v));
    const lost = keys.find((key) => key === null || !this.cipher.knows(key));
    return {
      id: row.id,
      label: row.label,
      kind: row.kind,
      shop: row.shop,
      url: row.urlShown,
      signed: row.secret !== null,
      createdAt: row.createdAt,
      problem:
        lost === undefined
          ? null
          : `encrypted with key ${lost ?? '(unknown)'}, not in CONNECTOR_ENCRYPTION_KEYS: remove the target and add it again`,
    };
  }

  private shopOf(shop: string | null): string | null {
    if (shop === null) return null;
    const found = this.shops.find(shop.trim().toLowerCase());
    if (!found)
      throw badRequest(
        'shop',
        `Unknown shop ${shop}: name a shop this connector serves, or none for every shop.`,
      );
    return found.domain;
  }
}

/** An HTTPS URL, or plain HTTP to this machine; without credentials in it. */
function checkedUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url', 'url must be an absolute URL (https://...).');
  }
  const local = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !local) {
    throw badRequest('url', 'url must be an HTTPS URL (plain HTTP only to 127.0.0.1, localhost or [::1]).');
  }
  if (url.username !== '' || url.password !== '') {
    throw badRequest('url', 'url must not carry a user name or password.');
  }
  return url;
}

function badRequest(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
