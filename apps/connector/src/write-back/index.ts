// The enrichment feature's import surface: finding finished enrichments and approvals in the
// catalog (keyset polling, review watchlist), deciding what to write back to Shopify (pure),
// the Admin GraphQL documents and calls that write it, and echo detection for the sync job.

export * from '../clients/shopify/documents/write-back.documents.js';
export { type CatalogValue, catalogValueOf } from './decide/catalog-value.js';
export {
  classifyEcho,
  type EchoVerdict,
  type ObservedTargets,
  observedFromProduct,
  observedFromState,
  observedFromWebhook,
} from './decide/echo.js';
export { type PlanWriteBackInput, planWriteBack, type TargetSituation } from './decide/plan-write-back.js';
export {
  emptyPlan,
  type PlannedWrite,
  type SkipReason,
  type TargetRef,
  type WriteBackPlan,
  type WriteOp,
} from './decide/write-back-plan.js';
export {
  namespaceMatches,
  type PushState,
  type RestoreValue,
  type ShopifyMetafield,
  type ShopifyProductState,
  stateKey,
  targetKey,
  type WriteBackSubject,
} from './decide/write-back-state.js';
export {
  type PollField,
  type PollOptions,
  type PollResult,
  pollChanged,
  type SearchProducts,
} from './poll/poll-finished.js';
export {
  awaitingReview,
  recheckWatchlist,
  recordContentHash,
  WATCHLIST_CHUNK,
} from './poll/review-watchlist.js';
export {
  type AdminGraphql,
  type GraphqlResponse,
  isThrottled,
  MUTATION_COST,
  type PacingOptions,
  pacedRequest,
  type QueryCost,
  throttleDelayMs,
} from './shopify/admin-graphql.js';
export { buildMutations, type WriteBackMutation, type WriteBackRoot } from './shopify/build-mutations.js';
export { type ExecuteOptions, executeWriteBack, type WriteOutcome } from './shopify/execute-write-back.js';
export { fetchWriteBackState } from './shopify/fetch-write-back-state.js';
export {
  nextVariantCursor,
  readWriteBackState,
  VARIANT_PAGE,
  WriteBackReadError,
  type WriteBackReadVariables,
  writeBackReadVariables,
} from './shopify/read-write-back-state.js';
export {
  type Conversion,
  type ConvertContext,
  convertValue,
  htmlToLines,
  PRODUCT_LIMITS,
  type ShopifyValue,
  textToHtml,
} from './values/convert-value.js';
export { htmlToRichText, type RichTextRoot, textToRichText } from './values/rich-text.js';
export { type ComparableValue, hasTag, valueHash } from './values/value-hash.js';
