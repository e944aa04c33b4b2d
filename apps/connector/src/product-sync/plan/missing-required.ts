import type { TargetRecord } from './target-records.js';

/**
 * Why a product cannot be created without `key`: the catalog rule its value breaks (a title with
 * a line break, a 300-character vendor: the gap's own message, naming the entry), or that the
 * product has no value at all. An operator reads this in the failures inbox, so it must say
 * what to mend, never only "a mapping gap".
 */
export function missingRequiredMessage(target: TargetRecord, key: string): string {
  const needs = `the catalog needs "${key}" to create a product`;
  const gap = target.gaps.find((g) => g.attribute === key);
  if (gap !== undefined) return `${needs}, and ${gap.entry} breaks a catalog rule: ${shorten(gap.message)}`;
  if (target.leftOut.has(key)) return `${needs}, and the product gives none (a mapping gap)`;
  return `${needs}, and the product gives none (give the entry a default)`;
}

/** Keeps a message readable when the value it quotes is very long (a 7 KB title). */
function shorten(message: string): string {
  return message.length <= 400 ? message : `${message.slice(0, 200)}…${message.slice(-160)}`;
}
