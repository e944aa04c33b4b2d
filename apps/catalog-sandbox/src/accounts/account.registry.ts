import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CatalogErrorCode } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { Account } from './account.js';
import type { AccountDefinition } from './account-definition.js';
import { type ApiKey, hashApiKey } from './api-key.js';

export interface CreatedAccount {
  account: Account;
  /** Keys the sandbox generated (no key given): shown in plain text this once. */
  generatedKeys: Array<{ id: string; key: string }>;
}

/** Every account of the sandbox, and the index from an API key's hash to its account. */
@Injectable()
export class AccountRegistry {
  private readonly accounts = new Map<string, Account>();
  private readonly keyIndex = new Map<string, { accountId: string; keyId: string }>();
  private accountSeq = 0;

  constructor(
    @Inject(SANDBOX_CONFIG) private readonly config: CatalogSandboxConfig,
    private readonly clock: Clock,
  ) {}

  create(definition: AccountDefinition): CreatedAccount {
    const id = definition.id ?? this.nextAccountId();
    if (this.accounts.has(id)) {
      throw new CatalogApiError(CatalogErrorCode.CONFLICT, `Account "${id}" already exists.`);
    }
    const given = definition.apiKeys ?? [];
    for (const { key } of given) this.assertKeyIsNew(key);
    const account = new Account(
      id,
      definition,
      this.config.behaviour,
      this.config.rateLimit,
      this.clock.now(),
      this.config.search.tieSeed,
    );
    const generatedKeys: CreatedAccount['generatedKeys'] = [];
    this.accounts.set(id, account);
    for (const { key, permissions } of given) this.attachKey(account, key, permissions ?? ['*']);
    if (given.length === 0) {
      const key = generateApiKey();
      generatedKeys.push({ id: this.attachKey(account, key, ['*']).id, key });
    }
    return { account, generatedKeys };
  }

  get(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  require(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw new CatalogApiError(CatalogErrorCode.NOT_FOUND, `No account "${id}".`);
    return account;
  }

  list(): Account[] {
    return [...this.accounts.values()];
  }

  delete(id: string): void {
    const account = this.require(id);
    for (const key of account.apiKeys.values()) this.keyIndex.delete(key.hash);
    this.accounts.delete(id);
  }

  /** Adds a key to an account; generates one when `key` is undefined. */
  addKey(account: Account, key: string | undefined, permissions: string[]): { apiKey: ApiKey; key: string } {
    const plain = key ?? generateApiKey();
    this.assertKeyIsNew(plain);
    return { apiKey: this.attachKey(account, plain, permissions), key: plain };
  }

  deleteKey(account: Account, keyId: string): void {
    const key = account.requireKey(keyId);
    this.keyIndex.delete(key.hash);
    account.apiKeys.delete(keyId);
  }

  /** The account and key a plain API key belongs to, whatever the key's status. */
  resolveKey(plain: string): { account: Account; key: ApiKey } | undefined {
    const entry = this.keyIndex.get(hashApiKey(plain));
    if (!entry) return undefined;
    const account = this.accounts.get(entry.accountId);
    const key = account?.apiKeys.get(entry.keyId);
    return account && key ? { account, key } : undefined;
  }

  clear(): void {
    this.accounts.clear();
    this.keyIndex.clear();
  }

  private attachKey(account: Account, plain: string, permissions: string[]): ApiKey {
    const hash = hashApiKey(plain);
    const apiKey = account.addKey(hash, plain.slice(-4), permissions, this.clock.now());
    this.keyIndex.set(hash, { accountId: account.id, keyId: apiKey.id });
    return apiKey;
  }

  private assertKeyIsNew(plain: string): void {
    if (this.keyIndex.has(hashApiKey(plain))) {
      throw new CatalogApiError(CatalogErrorCode.CONFLICT, 'That API key is already in use.');
    }
  }

  private nextAccountId(): string {
    do this.accountSeq += 1;
    while (this.accounts.has(`acct_${this.accountSeq}`));
    return `acct_${this.accountSeq}`;
  }
}

function generateApiKey(): string {
  return `pec_${randomBytes(24).toString('base64url')}`;
}
