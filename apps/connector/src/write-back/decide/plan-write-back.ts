import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { type ConvertContext, convertValue } from '../values/convert-value.js';
import { type ComparableValue, sameValue, valueHash } from '../values/value-hash.js';
import { catalogValueOf } from './catalog-value.js';
import { planTags } from './plan-tags.js';
import { emptyPlan, type TargetRef, type WriteBackPlan, type WriteOp } from './write-back-plan.js';
import {
  namespaceMatches,
  type PushState,
  type RestoreValue,
  type ShopifyMetafield,
  type ShopifyProductState,
  stateKey,
  targetKey,
  type WriteBackSubject,
} from './write-back-state.js';

/** Everything the write-back decision for one Shopify product needs; no I/O. */
export interface PlanWriteBackInput {
  subject: WriteBackSubject;
  /** The mapping's write-back entries (a removed entry: its targets are left alone). */
  entries: readonly ResolvedWriteBackEntry[];
  /** The product's push states (any owner); states of targets no entry names are ignored. */
  states: readonly PushState[];
  /** The targets as they stand in Shopify now (the connector's read). */
  shopify: ShopifyProductState;
  /** `stateKey`s the operator allows to overwrite a merchant's edit. */
  overrides?: ReadonlySet<string>;
  context?: ConvertContext;
}

/** One owner's view of a target during planning. */
export interface TargetSituation {
  ref: TargetRef;
  entry: ResolvedWriteBackEntry;
  state: PushState | undefined;
  overwrite: boolean;
}

/**
 * Decides the write-back of one Shopify product: which catalog values to push, which pushed ones
 * to take back, which targets a merchant now owns. Pushed: approved and person-entered values;
 * never pending or rejected ones; never again a value Shopify already holds. Product entries go
 * to the product, variant entries to each variant. A rejected or cleared value is retracted
 * (the metafield deleted, the field restored to the merchant's value, the connector's tags
 * removed). A target whose value differs from what the connector last pushed was edited by a
 * merchant: a conflict, and it is left alone unless the entry or the operator says overwrite.
 * An intent recorded before a crash that Shopify shows landed is settled without a new write.
 */
export function planWriteBack(input: PlanWriteBackInput): WriteBackPlan {
  const plan = emptyPlan(input.subject.productId);
  const states = new Map(input.states.map((s) => [stateKey(s.ownerId, s.attribute, s.target), s]));
  const tagSituations: Array<TargetSituation & { record: WriteBackSubject['record'] }> = [];
  for (const entry of input.entries) {
    const owners =
      entry.level === 'product'
        ? [{ ownerId: input.subject.productId, record: input.subject.record }]
        : input.subject.variants.map((v) => ({ ownerId: v.variantId, record: v.record }));
    for (const { ownerId, record } of owners) {
      const key = targetKey(entry.target);
      const ref: TargetRef = {
        productId: input.subject.productId,
        ownerId,
        attribute: entry.attribute,
        target: entry.target,
        key,
        path: entry.path,
      };
      const sKey = stateKey(ownerId, entry.attribute, key);
      const overwrite = entry.merchantEdits === 'overwrite' || (input.overrides?.has(sKey) ?? false);
      const situation = { ref, entry, state: states.get(sKey), overwrite };
      if (entry.target.kind === 'tags') tagSituations.push({ ...situation, record });
      else planTarget(situation, record, input, plan);
    }
  }
  if (tagSituations.length > 0) planTags(tagSituations, input, plan);
  return plan;
}

function planTarget(
  { ref, entry, overwrite, state: stored }: TargetSituation,
  record: WriteBackSubject['record'],
  input: PlanWriteBackInput,
  plan: WriteBackPlan,
): void {
  const current = currentOf(ref, input.shopify);
  const currentHash = valueHash(current.comparable);
  let state = stored;
  if (state?.intent) {
    const landed = state.intent.valueHash === currentHash;
    state = landed ? { ...state.intent, intent: null } : { ...state, intent: null };
    if (landed) plan.settled.push({ ref, next: state, why: 'intent-landed' });
  }
  if (state?.status === 'pushed' && state.valueHash !== currentHash) {
    if (!overwrite) {
      plan.conflicts.push({
        ref,
        next: { ...state, status: 'merchant-owned', valueHash: currentHash },
        detail: `${ref.key} of ${ref.ownerId} was changed in Shopify after the connector's push`,
      });
      return;
    }
    state = { ...state, status: 'merchant-owned' };
  }
  if (state?.status === 'merchant-owned' && !overwrite) {
    plan.skipped.push({ ref, reason: 'merchant-owned' });
    return;
  }
  if (!record) {
    plan.skipped.push({ ref, reason: 'not-in-catalog' });
    return;
  }
  const catalog = catalogValueOf(record, entry.attribute);
  const restore: RestoreValue = state?.status === 'pushed' ? (state.restore ?? null) : current.restore;
  const base = { ownerId: ref.ownerId, attribute: ref.attribute, target: ref.key };
  switch (catalog.status) {
    case 'pending':
      plan.skipped.push({ ref, reason: 'pending-review' });
      return;
    case 'approved':
    case 'entered': {
      const converted = convertValue(entry.definition.type, catalog.value, entry.target, input.context);
      if (!converted.ok) {
        plan.failures.push({ ref, reason: converted.reason });
        return;
      }
      const value = converted.value;
      if (value.kind === 'tags') return;
      const desired: ComparableValue =
        value.kind === 'field'
          ? { kind: 'field', value: value.value }
          : { kind: 'metafield', type: value.type, value: value.value };
      const desiredHash = valueHash(desired);
      const next = { ...base, status: 'pushed' as const, valueHash: desiredHash, restore };
      // Shopify's own form of the value (`1.5` for `1.50`) is the value: adopted, not rewritten.
      if (sameValue(desired, current.comparable)) {
        next.valueHash = currentHash;
        if (state?.status === 'pushed' && state.valueHash === currentHash)
          plan.skipped.push({ ref, reason: 'unchanged' });
        else plan.settled.push({ ref, next, why: 'already-in-shopify' });
        return;
      }
      const op: WriteOp =
        value.kind === 'field' && ref.target.kind === 'field'
          ? { kind: 'field', field: ref.target.field, value: value.value }
          : metafieldSet(ref, value.value, current.metafield);
      plan.writes.push({ ref, purpose: 'push', op, next });
      return;
    }
    case 'rejected':
    case 'empty': {
      if (state?.status !== 'pushed') {
        plan.skipped.push({ ref, reason: 'nothing-to-retract' });
        return;
      }
      const retract = retraction(ref, state.restore ?? null, current.metafield);
      if (typeof retract === 'string') {
        plan.failures.push({ ref, reason: retract });
        return;
      }
      plan.writes.push({
        ref,
        purpose: 'retract',
        op: retract.op,
        next: { ...base, status: 'retracted', valueHash: retract.hash, restore: null },
      });
    }
  }
}

/** A target's current value in Shopify, comparable, and as a restore point. */
export function currentOf(
  ref: TargetRef,
  shopify: ShopifyProductState,
): { comparable: ComparableValue; restore: RestoreValue; metafield?: ShopifyMetafield } {
  const target = ref.target;
  if (target.kind === 'metafield') {
    const metafield = shopify.metafields.find(
      (m) =>
        m.ownerId === ref.ownerId && m.key === target.key && namespaceMatches(target.namespace, m.namespace),
    );
    return {
      comparable: {
        kind: 'metafield',
        type: metafield?.type ?? target.type,
        value: metafield?.value ?? null,
      },
      restore: metafield ? { value: metafield.value, type: metafield.type } : null,
      ...(metafield ? { metafield } : {}),
    };
  }
  const value =
    target.kind === 'field'
      ? {
          title: shopify.title,
          descriptionHtml: shopify.descriptionHtml,
          'seo.title': shopify.seo.title,
          'seo.description': shopify.seo.description,
        }[target.field]
      : null;
  return { comparable: { kind: 'field', value }, restore: { value } };
}

function metafieldSet(ref: TargetRef, value: string, current: ShopifyMetafield | undefined): WriteOp {
  if (ref.target.kind !== 'metafield') throw new Error(`${ref.key} is not a metafield target`);
  return {
    kind: 'metafield-set',
    ownerId: ref.ownerId,
    namespace: ref.target.namespace,
    key: ref.target.key,
    type: ref.target.type,
    value,
    compareDigest: current?.compareDigest ?? null,
  };
}

/** The write that puts back what the merchant had (or deletes the metafield), and its hash. */
function retraction(
  ref: TargetRef,
  restore: RestoreValue,
  current: ShopifyMetafield | undefined,
): { op: WriteOp; hash: string } | string {
  const target = ref.target;
  if (target.kind === 'metafield') {
    if (restore?.value == null) {
      return {
        op: { kind: 'metafield-delete', ownerId: ref.ownerId, namespace: target.namespace, key: target.key },
        hash: valueHash({ kind: 'metafield', type: target.type, value: null }),
      };
    }
    const type = restore.type ?? target.type;
    return {
      op: {
        ...(metafieldSet(ref, restore.value, current) as Extract<WriteOp, { kind: 'metafield-set' }>),
        type,
      },
      hash: valueHash({ kind: 'metafield', type, value: restore.value }),
    };
  }
  if (target.kind !== 'field') return 'tags are retracted with the other tags';
  const value = restore?.value ?? null;
  if (target.field === 'title' && (value === null || value.trim() === ''))
    return 'no title to restore: a product title cannot be blank';
  const written = target.field === 'descriptionHtml' ? (value ?? '') : value;
  return {
    op: { kind: 'field', field: target.field, value: written },
    hash: valueHash({ kind: 'field', value: written }),
  };
}
