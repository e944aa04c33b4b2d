import type { Account } from '../accounts/account.js';
import { describeApiKey } from '../accounts/api-key.js';

/** What the portal API shows of an account: never a key's secret. */
export function accountSummary(account: Account) {
  return {
    id: account.id,
    createdAt: account.createdAt,
    apiKeys: [...account.apiKeys.values()].map(describeApiKey),
    behaviour: { ...account.behaviour },
    counts: { records: account.products.size, attributes: account.attributes.all().length },
  };
}
