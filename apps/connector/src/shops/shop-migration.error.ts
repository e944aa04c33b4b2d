/** Why a migration to expiring tokens could not be made: the admin API's status follows from it. */
export type ShopMigrationProblem = 'conflict' | 'invalid' | 'refused' | 'unavailable';

/**
 * Why: `ShopTokens.migrate` is called by an operator; each way it can fail says what to do
 * (already migrated, app credentials missing, Shopify's refusal, Shopify unreachable), and the
 * admin API turns it into its own error shape. Never holds a token.
 */
export class ShopMigrationError extends Error {
  constructor(
    message: string,
    readonly problem: ShopMigrationProblem,
  ) {
    super(message);
    this.name = 'ShopMigrationError';
  }
}
