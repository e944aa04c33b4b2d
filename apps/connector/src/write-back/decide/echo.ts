import { hasTag, valueHash } from '../values/value-hash.js';
import {
  namespaceMatches,
  type PushState,
  type ShopifyMetafield,
  type ShopifyProductState,
} from './write-back-state.js';

type FieldName = 'title' | 'descriptionHtml' | 'seo.title' | 'seo.description';

/**
 * The write-back targets a source shows: a `products/update` payload (title, description, tags,
 * and metafields when the subscription asks for their namespaces; never SEO nor variant
 * metafields) or the connector's read (all of them). Absent parts are not shown.
 */
export interface ObservedTargets {
  productId: string;
  fields: Partial<Record<FieldName, string | null>>;
  tags?: readonly string[];
  metafields?: readonly ShopifyMetafield[];
}

/** One pushed target and whether the source shows the connector's own value in it. */
export interface EchoVerdict {
  state: PushState;
  verdict: 'echo' | 'merchant-edit';
}

/**
 * Tells, target by target, whether what a source shows is the connector's own write coming back
 * (`echo`: the value hashes to what was pushed, or to an intent not yet confirmed) or a
 * merchant's edit of a target the connector pushed. A merged delivery can carry both: each
 * target is judged alone. Targets the source does not show are `unseen`; retracted and
 * merchant-owned targets are not the connector's and get no verdict.
 */
export function classifyEcho(
  observed: ObservedTargets,
  states: readonly PushState[],
): { echoes: EchoVerdict[]; merchantEdits: EchoVerdict[]; unseen: PushState[] } {
  const echoes: EchoVerdict[] = [];
  const merchantEdits: EchoVerdict[] = [];
  const unseen: PushState[] = [];
  for (const state of states) {
    if (state.status !== 'pushed' && !state.intent) continue;
    const seen = observedHash(observed, state);
    if (seen === undefined) {
      unseen.push(state);
      continue;
    }
    const ours = [state.status === 'pushed' ? state : undefined, state.intent ?? undefined].filter(
      (s): s is PushState => s !== undefined,
    );
    const echo = ours.some((s) => seen(s));
    (echo ? echoes : merchantEdits).push({ state, verdict: echo ? 'echo' : 'merchant-edit' });
  }
  return { echoes, merchantEdits, unseen };
}

/** A test of "the source shows this state's value", or undefined when the source does not show the target. */
function observedHash(observed: ObservedTargets, state: PushState): ((s: PushState) => boolean) | undefined {
  if (state.target === 'tags') {
    const tags = observed.tags;
    if (tags === undefined) return undefined;
    return (s) =>
      (s.tags ?? []).every((t) => hasTag(tags, t)) && (s.removedTags ?? []).every((t) => !hasTag(tags, t));
  }
  if (state.target.startsWith('metafield:')) {
    if (observed.metafields === undefined || state.ownerId !== observed.productId) return undefined;
    const [namespace, key] = splitMetafieldKey(state.target);
    const found = observed.metafields.find(
      (m) => m.ownerId === state.ownerId && m.key === key && namespaceMatches(namespace, m.namespace),
    );
    const hash = (type: string) => valueHash({ kind: 'metafield', type, value: found?.value ?? null });
    return (s) => s.valueHash === hash(found?.type ?? 'single_line_text_field');
  }
  const field = state.target as FieldName;
  if (!(field in observed.fields)) return undefined;
  const hash = valueHash({ kind: 'field', value: observed.fields[field] ?? null });
  return (s) => s.valueHash === hash;
}

/** `metafield:$app:catalog.material` -> [`$app:catalog`, `material`] (keys hold no dot). */
function splitMetafieldKey(target: string): [string, string] {
  const full = target.slice('metafield:'.length);
  const dot = full.lastIndexOf('.');
  return [full.slice(0, dot), full.slice(dot + 1)];
}

/**
 * What a product read without metafields shows: the sync job's canonical read
 * (`CanonicalProduct` has these fields) gives title, description, tags and SEO.
 */
export function observedFromProduct(product: {
  id: string;
  title: string;
  descriptionHtml: string;
  tags: readonly string[];
  seo: { title: string | null; description: string | null };
}): ObservedTargets {
  return {
    productId: product.id,
    fields: {
      title: product.title,
      descriptionHtml: product.descriptionHtml,
      'seo.title': product.seo.title,
      'seo.description': product.seo.description,
    },
    tags: product.tags,
  };
}

/** What the connector's read shows (every target). */
export function observedFromState(state: ShopifyProductState): ObservedTargets {
  return {
    productId: state.productId,
    fields: {
      title: state.title,
      descriptionHtml: state.descriptionHtml,
      'seo.title': state.seo.title,
      'seo.description': state.seo.description,
    },
    tags: state.tags,
    metafields: state.metafields,
  };
}

/**
 * What a `products/update` payload (REST shape) shows: `title`, `body_html` (empty as `""` or
 * null), `tags` (a comma-separated string) and, when the subscription lists metafield
 * namespaces, the product's `metafields`. Unknown or missing parts are not shown.
 */
export function observedFromWebhook(payload: Record<string, unknown>): ObservedTargets {
  const productId = String(payload.admin_graphql_api_id ?? `gid://shopify/Product/${String(payload.id)}`);
  const fields: ObservedTargets['fields'] = {};
  if (typeof payload.title === 'string') fields.title = payload.title;
  if ('body_html' in payload)
    fields.descriptionHtml = typeof payload.body_html === 'string' ? payload.body_html : null;
  const observed: ObservedTargets = { productId, fields };
  if ('tags' in payload) {
    const raw = payload.tags;
    const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.map(String) : [];
    observed.tags = list.map((t) => t.trim()).filter((t) => t !== '');
  }
  if (Array.isArray(payload.metafields)) {
    observed.metafields = payload.metafields.flatMap((m: Record<string, unknown>) =>
      typeof m?.namespace === 'string' && typeof m.key === 'string'
        ? [
            {
              ownerId: productId,
              namespace: m.namespace,
              key: m.key,
              type: typeof m.type === 'string' ? m.type : 'single_line_text_field',
              value: typeof m.value === 'string' ? m.value : JSON.stringify(m.value ?? null),
              compareDigest: '',
            },
          ]
        : [],
    );
  }
  return observed;
}
