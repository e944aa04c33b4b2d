import type { TimelineEvent } from '../admin/product-timeline.service.js';
import { inWords, targetInWords } from './ui-words.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Why: operators read "3 min ago", not an ISO timestamp. `at` against `now` (the injected
 * Clock's), rounded down; a time ahead of `now` (clock skew between replicas) reads "just now".
 */
export function relativeTime(at: string, now: number): string {
  const then = Date.parse(at);
  if (Number.isNaN(then)) return at;
  const ago = now - then;
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.floor(ago / MINUTE))} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  const days = Math.floor(ago / DAY);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** Catalog calls (`"PATCH /v1/skus/1 200"`) counted by method in words: "1 PATCH and 2 POSTs". */
export function callsInWords(calls: readonly string[]): string {
  if (calls.length === 0) return 'no catalog call';
  const counts = new Map<string, number>();
  for (const call of calls) {
    const method = call.split(' ')[0] ?? 'call';
    counts.set(method, (counts.get(method) ?? 0) + 1);
  }
  const parts = [...counts].map(([method, n]) => `${n} ${method}${n === 1 ? '' : 's'}`);
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `${list} to the catalog`;
}

/** Why: the product page's timeline reads as sentences ("product changed in Shopify → synced"). */
export function eventInWords(event: TimelineEvent): string {
  const details = event.details ?? {};
  switch (event.kind) {
    case 'webhook': {
      const [topic = '', state = '', ...rest] = event.summary.split(' ');
      const outcome = rest.join(' ').replace(/^\(|\)$/g, '');
      return `${inWords('topic', topic)} (webhook ${inWords('deliveryState', state)}${outcome ? `, ${inWords('syncOutcome', outcome)}` : ''})`;
    }
    case 'sync': {
      const calls = Array.isArray(details.calls) ? details.calls.map(String) : [];
      const match = /^sync \(([^)]*)\) (\S+)(?:: (.*?))?; \d+ catalog call/.exec(event.summary);
      const reason = match?.[1] ?? 'sync';
      const outcome = match?.[2] ?? '';
      const error = typeof details.error === 'string' ? ` (error ${details.error})` : '';
      return `sync after ${inWords('syncReason', reason)}: ${inWords('syncOutcome', outcome)}${match?.[3] ? `, ${match[3]}` : ''} → ${callsInWords(calls)}${error}`;
    }
    case 'write-back': {
      const attribute = String(details.attribute ?? '?');
      const field = targetInWords(
        String(details.target ?? event.summary.split('→ ')[1]?.split(': ')[0] ?? '?'),
      );
      const outcome = inWords('pushResult', event.summary.split(': ').at(-1) ?? '');
      if (details.purpose === 'conflict')
        return `the merchant edited Shopify's ${field}: ${outcome} (the catalog's ${attribute} is not written over it)`;
      return `catalog's ${attribute} written back to Shopify's ${field} (${inWords('pushPurpose', String(details.purpose ?? 'push'))}): ${outcome}`;
    }
    case 'failure':
      return event.summary.replace(
        /^(\S+) failed: (\S+) \((\w+)\)$/,
        (_, kind: string, code: string, state: string) =>
          `${inWords('jobKind', kind)} failed with ${code}; the failure is ${state}`,
      );
    case 'job':
      return `sync job ${event.summary}`;
    default:
      return event.summary;
  }
}

/** One line of the timeline: "3 min ago: product changed in Shopify (...)". */
export function timelineLine(event: TimelineEvent, now: number): string {
  return `${relativeTime(event.at, now)}: ${eventInWords(event)}`;
}
