/**
 * Why: `connector mapping init` matches Shopify's names (product types, options, metafields) to
 * the catalog account's (categories, attributes) the way a person reads them: ignoring case,
 * spaces and punctuation (`T-Shirts` is `t shirts`), and singular or plural (`Knife`,
 * `Knives`). Anything looser is a candidate to offer, never a match.
 */
export function sameName(a: string, b: string): boolean {
  const forms = new Set(nameForms(a));
  return nameForms(b).some((form) => forms.has(form));
}

/** A name reduced to letters and digits, lower case (`T-Shirts` -> `tshirts`). */
export function squash(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The squashed name and its singular readings (`knives` -> `knife`, `knif`, `knive`, ...). */
export function nameForms(name: string): string[] {
  const base = squash(name);
  if (base === '') return [];
  const forms = new Set([base]);
  if (base.length > 3) {
    if (base.endsWith('s') && !base.endsWith('ss')) forms.add(base.slice(0, -1));
    if (base.endsWith('es')) forms.add(base.slice(0, -2));
    if (base.endsWith('ies')) forms.add(`${base.slice(0, -3)}y`);
    if (base.endsWith('ves')) {
      forms.add(`${base.slice(0, -3)}f`);
      forms.add(`${base.slice(0, -3)}fe`);
    }
  }
  return [...forms];
}

/**
 * How alike two names are, 0 (nothing shared) to 1 (the same name): shared words, one name
 * inside the other, or a few letters apart. Ranks the candidates offered for a name that
 * matched nothing.
 */
export function likeness(a: string, b: string): number {
  if (sameName(a, b)) return 1;
  const x = squash(a);
  const y = squash(b);
  if (x === '' || y === '') return 0;
  let score = 0;
  if (x.length >= 3 && y.length >= 3 && (x.includes(y) || y.includes(x))) score = Math.max(score, 0.8);
  const wordsA = words(a);
  const wordsB = words(b);
  const shared = wordsA.filter((w) => wordsB.some((v) => sameName(w, v))).length;
  if (shared > 0) score = Math.max(score, (0.7 * shared) / Math.max(wordsA.length, wordsB.length));
  const distance = editDistance(x, y);
  const longest = Math.max(x.length, y.length);
  if (distance <= Math.max(1, Math.floor(longest / 4))) score = Math.max(score, 0.9 - distance / longest);
  return score;
}

function words(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

/** Levenshtein distance (short names only: product types and category names). */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Math.max(a.length, b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
