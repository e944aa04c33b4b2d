import type { DriftFinding } from './model/drift-finding.js';

/**
 * Why: some repairs do more than their name says, and an operator should read it before choosing
 * them (the web page, the CLI and a `preview` request show it). A gone record's resync creates
 * the record again under a new skuId: the gone record's enrichment is not brought back, and the
 * values already written back to Shopify from it stay there (the next report may propose
 * retracting them, as no longer approved). Null when the repair's name says it all.
 */
export function repairEffect(finding: DriftFinding): string | null {
  if (finding.kind === 'record-gone') {
    return (
      `recreates the record${finding.supplierSku !== null ? ` ${finding.supplierSku}` : ''} under a new skuId: ` +
      `the enrichment of ${finding.skuId ?? 'the gone record'} is lost, and values already written back to ` +
      'Shopify from it stay (the next report may propose retracting them)'
    );
  }
  if (finding.repair === 'delete-record') {
    return `deletes record ${finding.skuId ?? '?'} from the catalog for good, with its enrichment (re-checked first)`;
  }
  return null;
}
