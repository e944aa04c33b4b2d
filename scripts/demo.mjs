// `npm run demo`: the connector's whole story against the running `npm start` stack, step by
// step: a merchant creates products, the catalog receives them, an enrichment run and a review
// happen in the catalog, the approved content reaches the shop, a merchant edit is respected.
// Ends with a before/after of one product. Exit 0 when every step held. Bounded: it gives up after
// DEMO_TIMEOUT_S seconds in all (or `--timeout=<s>`; default 600), however loaded the machine.
import { connector, urls, waitFor } from './demo/http.mjs';
import {
  approvedContentReachesShop,
  catalogReceives,
  connectorPolls,
  enrichAndReview,
  merchantCreatesProducts,
  merchantEditIsRespected,
  shopifyState,
} from './demo/story.mjs';

const steps = 6;
let step = 0;
const title = (text) => console.log(`\n[${++step}/${steps}] ${text}`);
const log = (text) => console.log(text);

function table(before, after) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const width = Math.max(...keys.map((k) => k.length));
  const cell = (value) =>
    (value === undefined || value === null || value === '' ? '-' : String(value)).slice(0, 60);
  console.log(`\n${'field'.padEnd(width)} | ${'before'.padEnd(40)} | after`);
  for (const key of keys)
    console.log(`${key.padEnd(width)} | ${cell(before[key]).padEnd(40)} | ${cell(after[key])}`);
}

try {
  console.log(`demo against catalog ${urls.catalog}, Shopify ${urls.shopify}, connector ${urls.connector}`);
  // Not running at all shows within two minutes; a slow start may use the whole budget otherwise.
  await waitFor('the connector to be ready', () => connector.ready(), { timeoutMs: 120_000 });
  title('A merchant creates products in the Shopify sandbox');
  const created = await merchantCreatesProducts(log);
  const [shirt, knife] = created.productIds;
  const before = await shopifyState(shirt);
  title('The connector syncs them into the catalog');
  const skuIds = await catalogReceives(created, log);
  title('An enrichment run and a review happen in the catalog');
  await enrichAndReview(skuIds, log);
  title('The connector polls the catalog and writes the approved content back');
  await connectorPolls(log);
  await approvedContentReachesShop(shirt, skuIds.products[0], log);
  title('A merchant edit is respected');
  const after = await merchantEditIsRespected(shirt, skuIds.products[0], log);
  title(`Before and after: product ${shirt} in Shopify`);
  table(before, after);
  console.log(`\ndemo complete: products ${shirt} and ${knife} synced, enriched, reviewed and written back`);
} catch (error) {
  console.error(`\ndemo failed at step ${step}: ${error.message}`);
  process.exit(1);
}
