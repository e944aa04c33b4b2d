import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** Where the admin-ui e2e files save each page's screenshots (`<page>-<width>.png`). */
export const SCREENSHOTS = join(process.cwd(), '.tmp', 'admin-ui');
const AXE = createRequire(import.meta.url).resolve('axe-core');

/**
 * The serious and critical axe-core violations of the page as it stands (its id, impact and
 * nodes). The page's context must bypass CSP (`bypassCSP`): the pages forbid injected scripts.
 */
export async function seriousViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string | null; nodes: string[] }>> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(
    'axe.run(document).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) })))',
  )) as Array<{ id: string; impact: string | null; nodes: string[] }>;
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Saves the page's full screenshot at `width` as `<name>-<width>.png` and answers how far the
 * page scrolls sideways (0 when wide tables scroll inside their wrapper, as they should). Throws
 * when the page body is wider than `width` (the layout holds from 1280 down to 390 px).
 */
export async function screenshotAt(page: Page, name: string, width: number): Promise<number> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  const body = (await page.evaluate('document.scrollingElement.scrollWidth')) as number;
  if (body > width) throw new Error(`${name} at ${width} px: the page body is ${body} px wide`);
  return (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
}

/** What tabbing through a page reached (`tabThrough`). */
export interface TabWalk {
  /** Every control the keyboard should reach (links, buttons, fields, focusable regions), named. */
  controls: string[];
  /** Those Tab never reached. */
  missed: string[];
  /** Those reached without a visible focus style (no outline, no box shadow). */
  unmarked: string[];
}

const CONTROLS =
  'a[href], summary, button:not([disabled]), input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Presses Tab from the top of the page until the focus comes round again, noting each control it
 * reaches and whether its focus is visible: an operator with the keyboard alone reaches every
 * action and sees where they are.
 */
export async function tabThrough(page: Page, max = 300): Promise<TabWalk> {
  const controls = (await page.evaluate(`(() => {
    const named = [];
    document.querySelectorAll(${JSON.stringify(CONTROLS)}).forEach((e, i) => {
      if (e.getClientRects().length === 0) return;
      e.setAttribute('data-tab-walk', String(i));
      const name = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('name') || e.tagName).trim().replace(/\\s+/g, ' ').slice(0, 60);
      named.push(i + ': ' + e.tagName.toLowerCase() + ' ' + name);
    });
    document.activeElement && document.activeElement.blur && document.activeElement.blur();
    window.scrollTo(0, 0);
    return named;
  })()`)) as string[];
  const names = new Map(controls.map((c) => [c.slice(0, c.indexOf(':')), c]));
  const reached = new Set<string>();
  const unmarked: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = (await page.evaluate(`(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const s = getComputedStyle(e);
      const visible = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
      return { id: e.getAttribute('data-tab-walk'), visible };
    })()`)) as { id: string | null; visible: boolean } | null;
    // Past the last control the focus leaves the document; one the list does not know is passed.
    if (focused === null) {
      if (reached.size > 0) break;
      continue;
    }
    if (focused.id === null) continue;
    if (reached.has(focused.id)) break;
    reached.add(focused.id);
    if (!focused.visible) unmarked.push(names.get(focused.id) ?? focused.id);
  }
  return {
    controls,
    missed: controls.filter((c) => !reached.has(c.slice(0, c.indexOf(':')))),
    unmarked,
  };
}
