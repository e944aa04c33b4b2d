import type { WriteBackEntry } from '../../mapping/model/mapping-file.js';
import type { PushState } from '../../write-back/decide/write-back-state.js';
import { targetKey } from '../../write-back/decide/write-back-state.js';
import { esc } from './ui-html.js';
import { targetInWords } from './ui-words.js';

/** One write-back target of a product and the side that owns it now, in words. */
export interface TargetOwner {
  /** `targetKey`: `seo.title`, `tags`, `metafield:$app:catalog.material`. */
  target: string;
  level: 'product' | 'variant';
  attribute: string;
  /** `catalog` writes the target; `shopify`: a merchant's edit is kept there. */
  owner: 'catalog' | 'shopify';
  /** The mapping's rule for the target and where it stands, in words. */
  rule: string;
  now: string;
}

/**
 * Why: the product page says which side owns each write-back target from the mapping's own
 * rules (its `writeBack` entries and their `merchantEdits`), not only from what happened: a
 * target nothing was written to yet is still the catalog's, a merchant's edit kept makes it
 * Shopify's. `states` are the product's push states (every owner: product and variants).
 */
export function targetOwners(
  entries: readonly WriteBackEntry[],
  states: readonly PushState[],
): TargetOwner[] {
  return entries.map((entry) => {
    const target = targetKey(entry.target);
    const mine = states.filter((s) => s.attribute === entry.attribute && s.target === target);
    const edited = mine.some((s) => s.status === 'merchant-owned');
    const keep = entry.merchantEdits === 'keep';
    const rule = `the catalog's ${entry.attribute} (approved content) is written to the ${entry.level}'s ${targetInWords(target)}; a merchant's edit there is ${keep ? 'kept' : 'overwritten'}`;
    const now =
      edited && keep
        ? "a merchant edited it: Shopify's value is kept"
        : edited
          ? "a merchant edited it: the catalog's next value overwrites it"
          : mine.some((s) => s.status === 'pushed')
            ? "holds the catalog's value"
            : mine.some((s) => s.status === 'retracted')
              ? "the catalog's value was taken back"
              : 'nothing written yet';
    return {
      target,
      level: entry.level,
      attribute: entry.attribute,
      owner: edited && keep ? 'shopify' : 'catalog',
      rule,
      now,
    };
  });
}

/** The owners section's content: one line per write-back target, and what stays Shopify's. */
export function ownersHtml(owners: readonly TargetOwner[] | null): string {
  if (owners === null)
    return '<p class="muted">The shop has no checked mapping: nothing is written back, every field is Shopify\'s.</p>';
  if (owners.length === 0)
    return '<p class="muted">The mapping writes nothing back: every field is Shopify\'s.</p>';
  return `<ul>${owners
    .map(
      (o) =>
        `<li data-target="${esc(o.target)}" data-owner="${o.owner}"><strong title="${esc(o.target)}">${esc(targetInWords(o.target))}</strong>: owned by ${
          o.owner === 'catalog' ? `the catalog (${esc(o.attribute)})` : "Shopify (the merchant's edit)"
        }, ${esc(o.now)}. <span class="muted">Rule: ${esc(o.rule)}.</span></li>`,
    )
    .join('')}</ul><p class="muted">Every other field is Shopify's: it feeds the catalog.</p>`;
}
