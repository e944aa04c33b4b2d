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
 * page scrolls sideways (0 when wide tables scroll inside their wrapper, as they should).
 */
export async function screenshotAt(page: Page, name: string, width: number): Promise<number> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  return (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
}
