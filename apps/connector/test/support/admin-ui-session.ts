import type { Page } from 'playwright-core';
import type { TestBrowser } from './browser.js';

/**
 * Signs in to `/admin/ui` over plain HTTP (the sign-in form's POST) and returns the session
 * cookie (`name=value`) for the pages' GETs: tests that read pages without a browser.
 */
export async function uiSessionCookie(baseUrl: string, token: string): Promise<string> {
  const login = await fetch(`${baseUrl}/admin/ui/login`, {
    method: 'POST',
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
  if (login.status !== 303) throw new Error(`sign-in refused: ${login.status}`);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

/** A page of `/admin/ui` read with a session cookie: its status and HTML. */
export async function uiPage(
  baseUrl: string,
  cookie: string,
  path: string,
): Promise<{ status: number; html: string }> {
  const answer = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  return { status: answer.status, html: await answer.text() };
}

/**
 * A new browser page at `width` px, signed in through the sign-in form when the browser's
 * profile has no session yet (the admin-ui e2e files share it).
 */
export async function signedInPage(
  browser: TestBrowser,
  baseUrl: string,
  token: string,
  width = 1280,
): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const answer = await page.goto(`${baseUrl}/admin/ui`);
  if (answer?.status() === 401) {
    await page.fill('input[name="token"]', token);
    await Promise.all([page.waitForURL(`${baseUrl}/admin/ui`), page.click('button[type="submit"]')]);
  }
  return page;
}
