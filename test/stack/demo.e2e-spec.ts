import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack, startProcess } from './support/stack-process.js';

/** The demo's whole budget here: its default (600 s), generous for a loaded CI machine. */
const DEMO_TIMEOUT_S = 600;

// `npm run demo` as the README says: against the running local stack (real processes, free
// ports), it walks the whole story and must reach its final state: exit 0, each step printed,
// the approved content in the shop and the merchant's edit kept, then the before/after.
describe('npm run demo', () => {
  let stack: LocalStack;

  // The stack with its own admin token: the demo reads it from CONNECTOR_ADMIN_TOKEN, as it reads
  // the ports from the variables `npm start` was given (PORT, CATALOG_SANDBOX_PORT, SHOPIFY_SANDBOX_PORT).
  const adminToken = `demo-admin-${process.pid}-token`;
  beforeAll(async () => {
    stack = await startLocalStack({ CONNECTOR_ADMIN_TOKEN: adminToken });
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it(
    'walks the story to its final state against the running stack',
    async () => {
      // The demo bounds itself (DEMO_TIMEOUT_S in all, every wait included); the test's own limits
      // are above it, so a slow run fails with the demo's message naming the step, not a kill.
      const port = (service: string) => new URL(stack.url(service)).port;
      const demo = startProcess('npm', ['run', '--silent', 'demo'], {
        PORT: port('connector'),
        CATALOG_SANDBOX_PORT: port('catalog'),
        SHOPIFY_SANDBOX_PORT: port('shopify'),
        CONNECTOR_ADMIN_TOKEN: adminToken,
        DEMO_TIMEOUT_S: String(DEMO_TIMEOUT_S),
      });
      const timer = setTimeout(() => void demo.killGroup(), (DEMO_TIMEOUT_S + 30) * 1_000);
      const { code } = await demo.exited;
      clearTimeout(timer);
      const output = demo.output();
      expect(code, output.slice(-3000)).toBe(0);
      for (const step of [1, 2, 3, 4, 5, 6]) expect(output).toContain(`[${step}/6]`);
      expect(output).toMatch(/the shirt's media gallery holds 2 images/);
      expect(output).toMatch(/Shopify now shows the approved SEO title: "[^"]+"/);
      expect(output).toContain(`Shopify keeps the merchant's SEO title: "Linen shirt - our own words"`);
      expect(output).toMatch(/seo\.title\s+\| -?\s*.*\| Linen shirt - our own words/);
      expect(output.trim().split('\n').at(-1)).toMatch(/^demo complete: products \d+ and \d+ synced/);

      // The operator's view of the demo shirt: both sides, each write-back target's owner (the
      // merchant's SEO title kept), and its history in words.
      const shirt = /^demo complete: products (\d+) and/m.exec(output)?.[1] as string;
      const connector = stack.url('connector');
      const login = await fetch(`${connector}/admin/ui/login`, {
        method: 'POST',
        body: new URLSearchParams({ token: adminToken }),
        redirect: 'manual',
      });
      expect(login.status).toBe(303);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const answer = await fetch(`${connector}/admin/ui/products/${shirt}?shop=demo.myshopify.com`, {
        headers: { cookie },
      });
      expect(answer.status).toBe(200);
      const html = (await answer.text()).replaceAll('&#39;', "'").replaceAll('&quot;', '"');
      expect(html).toMatch(
        /<tr data-attribute="name"><th scope="row">name<\/th><td class="shopify-side">Demo Linen Shirt<\/td><td class="catalog-side">Demo Linen Shirt<\/td>/,
      );
      expect(html).toMatch(
        /<li data-target="seo\.title" data-owner="shopify"><strong title="seo\.title">SEO title<\/strong>: owned by Shopify \(the merchant's edit\), a merchant edited it: Shopify's value is kept\./,
      );
      expect(html).toMatch(
        /<li data-target="tags" data-owner="catalog"><strong title="tags">tags<\/strong>: owned by the catalog \(aiTags\)/,
      );
      expect(html).toMatch(/(>\d+ min ago|>just now)<\/time>: product (created|changed) in Shopify/);
      expect(html).toMatch(
        /: sync after [\w ]+: \w+[^<]* → (\d+ \w+, )*\d+ POSTs?( and \d+ \w+)? to the catalog</,
      );
      expect(html).toMatch(/: catalog's seoTitle written back to Shopify's SEO title \(approved content\)/);
    },
    (DEMO_TIMEOUT_S + 60) * 1_000,
  );
});
