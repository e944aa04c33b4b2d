/** A link that answered 4xx or 5xx: where it points, what it answered, and the page it is on. */
export interface BadLink {
  link: string;
  status: number;
  foundOn: string;
}

/** What a crawl saw: every path it requested, and the links that answered badly. */
export interface Crawl {
  visited: string[];
  bad: BadLink[];
  /** True when it stopped at `maxRequests` with links left to follow. */
  capped: boolean;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

/** The `<a href>` targets of an HTML page, entities decoded. */
export function linksOf(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*?href\s*=\s*"([^"]*)"/gi)].map((match) =>
    (match[1] as string).replace(/&(amp|quot|#39|lt|gt);/g, (entity) => ENTITIES[entity] as string),
  );
}

/**
 * Test support: follows, breadth-first from `start`, every same-origin `<a href>` under `/admin`
 * of every page reached (GET with the web view's session cookie, as a signed-in browser would;
 * redirects followed as links), up to `maxRequests` requests. Pages under `/admin/ui` answering
 * HTML are read for more links; every link answering 4xx or 5xx is reported with its page.
 */
export async function crawlLinks(
  baseUrl: string,
  cookie: string,
  start: string,
  maxRequests = 500,
): Promise<Crawl> {
  const origin = new URL(baseUrl).origin;
  const seen = new Set<string>([start]);
  const queue: Array<{ path: string; from: string }> = [{ path: start, from: '(start)' }];
  const visited: string[] = [];
  const bad: BadLink[] = [];
  const follow = (href: string, page: string) => {
    const target = new URL(href, `${origin}${page}`);
    if (target.origin !== origin || !/^\/admin(\/|$)/.test(target.pathname)) return;
    const path = `${target.pathname}${target.search}`;
    if (seen.has(path)) return;
    seen.add(path);
    queue.push({ path, from: page });
  };
  while (queue.length > 0 && visited.length < maxRequests) {
    const { path, from } = queue.shift() as { path: string; from: string };
    visited.push(path);
    const answer = await fetch(`${origin}${path}`, { headers: { cookie }, redirect: 'manual' });
    if (answer.status >= 400) {
      bad.push({ link: path, status: answer.status, foundOn: from });
      await answer.arrayBuffer();
      continue;
    }
    const location = answer.headers.get('location');
    if (answer.status >= 300 && location !== null) {
      follow(location, path);
      await answer.arrayBuffer();
      continue;
    }
    const html = (answer.headers.get('content-type') ?? '').startsWith('text/html');
    if (!html || !path.startsWith('/admin/ui')) {
      await answer.arrayBuffer();
      continue;
    }
    for (const href of linksOf(await answer.text())) {
      if (href.startsWith('#') || /^(mailto|javascript|data):/i.test(href)) continue;
      follow(href, path);
    }
  }
  return { visited, bad, capped: queue.length > 0 };
}
