import { convertValue, PRODUCT_LIMITS } from '../values/convert-value.js';
import { hasTag, valueHash } from '../values/value-hash.js';
import { catalogValueOf, isWritten } from './catalog-value.js';
import type { PlanWriteBackInput, TargetSituation } from './plan-write-back.js';
import type { WriteBackPlan } from './write-back-plan.js';
import type { PushState, WriteBackSubject } from './write-back-state.js';

type TagSituation = TargetSituation & { record: WriteBackSubject['record'] };

/**
 * Decides the tags entries of one product together: the product's tags are shared by the
 * merchant and every tags entry. Each entry adds its values that are missing (`tagsAdd`) and
 * owns only the tags it added; a tag is removed (`tagsRemove`) only when the connector added it
 * and no entry wants it any more. A tag the connector added that the merchant then removed makes
 * the entry merchant-owned (a conflict): its tags are left alone from then on, unless the entry
 * or the operator says overwrite.
 */
export function planTags(situations: TagSituation[], input: PlanWriteBackInput, plan: WriteBackPlan): void {
  const current = input.shopify.tags;
  type Active = { s: TagSituation; state: PushState | undefined; desired: string[] };
  const active: Active[] = [];
  const protectedTags: string[] = [];

  for (const s of situations) {
    let state = s.state;
    if (state?.intent) {
      const landed =
        (state.intent.tags ?? []).every((t) => hasTag(current, t)) && removalsLanded(state, current);
      state = landed ? { ...state.intent, intent: null } : { ...state, intent: null };
      if (landed) plan.settled.push({ ref: s.ref, next: state, why: 'intent-landed' });
    }
    const owned = state?.status === 'pushed' ? (state.tags ?? []) : [];
    const removedByMerchant = owned.filter((t) => !hasTag(current, t));
    if (state?.status === 'pushed' && removedByMerchant.length > 0 && !s.overwrite) {
      plan.conflicts.push({
        ref: s.ref,
        next: { ...state, status: 'merchant-owned', tags: owned.filter((t) => hasTag(current, t)) },
        detail: `the merchant removed tags the connector added: ${removedByMerchant.join(', ')}`,
      });
      protectedTags.push(...owned);
      continue;
    }
    if (state?.status === 'merchant-owned' && !s.overwrite) {
      plan.skipped.push({ ref: s.ref, reason: 'merchant-owned' });
      protectedTags.push(...(state.tags ?? []));
      continue;
    }
    if (!s.record) {
      plan.skipped.push({ ref: s.ref, reason: 'not-in-catalog' });
      protectedTags.push(...owned);
      continue;
    }
    const catalog = catalogValueOf(s.record, s.entry.attribute);
    if (catalog.status === 'pending') {
      plan.skipped.push({ ref: s.ref, reason: 'pending-review' });
      protectedTags.push(...owned);
      continue;
    }
    if (isWritten(catalog)) {
      const converted = convertValue(s.entry.definition.type, catalog.value, s.entry.target, input.context);
      if (!converted.ok || converted.value.kind !== 'tags') {
        plan.failures.push({ ref: s.ref, reason: converted.ok ? 'not a tags value' : converted.reason });
        protectedTags.push(...owned);
        continue;
      }
      active.push({ s, state, desired: converted.value.tags });
    } else active.push({ s, state, desired: [] });
  }

  const wanted = [...protectedTags, ...active.flatMap((a) => a.desired)];
  const ownedByAny = active.flatMap((a) => (a.state?.status === 'pushed' ? (a.state.tags ?? []) : []));
  let count = current.length;
  for (const { s, state, desired } of active) {
    const owned = state?.status === 'pushed' ? (state.tags ?? []) : [];
    const add = desired.filter((t) => !hasTag(current, t));
    const keep = desired.filter((t) => hasTag(current, t) && hasTag(ownedByAny, t));
    const remove = owned.filter((t) => hasTag(current, t) && !hasTag(wanted, t));
    if (count + add.length - remove.length > PRODUCT_LIMITS.tags) {
      plan.failures.push({ ref: s.ref, reason: `a product holds at most ${PRODUCT_LIMITS.tags} tags` });
      continue;
    }
    count += add.length - remove.length;
    const pushing = desired.length > 0;
    const next: PushState = {
      ownerId: s.ref.ownerId,
      attribute: s.ref.attribute,
      target: s.ref.key,
      status: pushing ? 'pushed' : 'retracted',
      valueHash: pushing ? valueHash({ kind: 'tags', tags: desired }) : null,
      tags: [...add, ...keep],
    };
    if (add.length === 0 && remove.length === 0) {
      if (!pushing && state?.status !== 'pushed')
        plan.skipped.push({ ref: s.ref, reason: 'nothing-to-retract' });
      else if (
        state?.status === next.status &&
        state.valueHash === next.valueHash &&
        sameTags(owned, next.tags ?? [])
      )
        plan.skipped.push({ ref: s.ref, reason: 'unchanged' });
      else plan.settled.push({ ref: s.ref, next, why: 'already-in-shopify' });
      continue;
    }
    plan.writes.push({
      ref: s.ref,
      purpose: pushing ? 'push' : 'retract',
      op: { kind: 'tags', add, remove },
      next: { ...next, ...(remove.length > 0 ? { removedTags: remove } : {}) },
    });
  }
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t) => hasTag(b, t));
}

/** Whether the tags an intent meant to remove are gone. */
function removalsLanded(state: PushState, current: readonly string[]): boolean {
  return (state.intent?.removedTags ?? []).every((t) => !hasTag(current, t));
}
