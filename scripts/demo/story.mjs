// The demo's story, step by step: each step acts through the services' own APIs and waits for
// the connector to do its part. Returns what the before/after print needs.
import { catalog, connector, shop, waitFor } from './http.mjs';

/** A 2x2 PNG (bytes only; the Shopify sandbox serves it from its image URL). */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

const PRODUCT_STATE = `query DemoProduct($id: ID!) {
  product(id: $id) {
    title tags seo { title description }
    metafields(first: 20) { nodes { namespace key value } }
  }
}`;

/** The product as the shop shows it: what the before/after compares. */
export async function shopifyState(productId) {
  const data = await shop.graphql(PRODUCT_STATE, { id: `gid://shopify/Product/${productId}` });
  const p = data.product;
  return {
    title: p.title,
    'seo.title': p.seo.title,
    'seo.description': p.seo.description,
    tags: [...p.tags].sort().join(', '),
    ...Object.fromEntries(p.metafields.nodes.map((m) => [`metafield ${m.key}`, m.value])),
  };
}

export async function merchantCreatesProducts(log) {
  const shirt = await shop.rest('POST', 'products.json', {
    product: {
      title: 'Demo Linen Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      body_html: '<p>A breathable linen shirt with a relaxed fit.</p>',
      tags: 'summer, merchant-pick',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'S', price: '49.00', barcode: '4006381333931', sku: 'DEMO-LIN-S' },
        { option1: 'M', price: '49.00', barcode: '4006381333948', sku: 'DEMO-LIN-M' },
      ],
      images: [
        { attachment: PNG, alt: 'Front' },
        { attachment: PNG.replace('AAAAFklEQVR4', 'AAAAFklEQVR5'), alt: 'Back' },
      ],
    },
  });
  const knife = await shop.rest('POST', 'products.json', {
    product: {
      title: 'Demo Chef Knife',
      vendor: 'Acme',
      product_type: 'Knives',
      body_html: '<p>An 8-inch chef knife of forged steel.</p>',
      variants: [{ price: '89.00', barcode: '4006381333955', sku: 'DEMO-KNIFE' }],
    },
  });
  const ids = [String(shirt.product.id), String(knife.product.id)];
  log(
    `the merchant created "Demo Linen Shirt" (2 sizes, 2 images) and "Demo Chef Knife": products ${ids.join(', ')}`,
  );
  return { productIds: ids, shirtVariantIds: shirt.product.variants.map((v) => String(v.id)) };
}

/** Waits until the catalog holds each product's record; returns their skuIds (variants included). */
export async function catalogReceives({ productIds, shirtVariantIds }, log) {
  const bySupplierSku = (supplierSku) =>
    waitFor(`the catalog record ${supplierSku}`, async () => {
      const found = await catalog.api('POST', '/v1/products/search', {
        filter: { supplierSku: { $eq: supplierSku } },
      });
      return found.data.products[0];
    });
  const products = [];
  for (const id of productIds) {
    const record = await bySupplierSku(`demo:product:${id}`);
    products.push(record.skuId);
    const name = record.attributes.find((a) => a.key === 'name')?.value;
    log(`  catalog: ${record.supplierSku} -> skuId ${record.skuId} ("${name}")`);
  }
  const variants = [];
  for (const id of shirtVariantIds) {
    const record = await bySupplierSku(`demo:variant:${id}`);
    variants.push(record.skuId);
    log(`  catalog: ${record.supplierSku} -> skuId ${record.skuId} (a variant of ${products[0]})`);
  }
  const media = await waitFor('the shirt images in the catalog', async () => {
    const record = await catalog.api('GET', `/v1/products/${products[0]}`);
    const gallery = record.data.attributes.find((a) => a.key === 'media')?.value;
    return Array.isArray(gallery) && gallery.length === 2 && gallery;
  });
  log(
    `  catalog: the shirt's media gallery holds ${media.length} images, in Shopify's order (${media.join(', ')})`,
  );
  return { products, variants };
}

export async function enrichAndReview(skuIds, log) {
  const run = await catalog.portal('POST', '/enrichment/runs', {
    skuIds: [...skuIds.products, ...skuIds.variants],
  });
  const done = await waitFor('the enrichment run', async () => {
    const state = await catalog.portal('GET', `/enrichment/runs/${run.data.runId}`);
    return state.data.status === 'DONE' && state.data;
  });
  for (const item of done.items)
    log(`  enrichment ${item.skuId}: ${item.status}, filled ${item.filled?.length ?? 0} attributes`);
  const approveKeys = [
    'seoTitle',
    'seoDescription',
    'aiTags',
    'material',
    'aiDescription',
    'aiBulletPoints',
    'variantTitle',
  ];
  for (const item of done.items.filter((i) => i.status === 'FINISHED')) {
    const approve = (item.filled ?? []).filter((k) => approveKeys.includes(k));
    const reject = (item.filled ?? []).filter((k) => k === 'careInstructions');
    if (approve.length + reject.length === 0) continue;
    await catalog.portal('POST', `/products/${item.skuId}/review`, { approve, reject });
    log(
      `  review ${item.skuId}: approved ${approve.join(', ') || '-'}; rejected ${reject.join(', ') || '-'}`,
    );
  }
}

/** Asks the connector to poll now and waits until that poll and its pushes are done. */
export async function connectorPolls(log) {
  const started = await connector.admin('POST', '/admin/enrichment/poll');
  const id = started.id ?? started.data?.id;
  const finished = await waitFor(
    'the enrichment poll',
    async () => {
      const state = await connector.admin('GET', `/admin/enrichment/poll/${id}`);
      const body = state.data ?? state;
      // finished, and the pushes it found done: what the next step looks at in Shopify
      const done = body.status === 'finished' && (body.pushes?.pending ?? 0) === 0;
      return (done || body.status === 'failed') && body;
    },
    // A failed poll is final (one attempt): say why at once instead of waiting out the budget.
    { failed: (body) => body?.status === 'failed' && `poll ${id} failed: ${body.error}` },
  );
  log(`  poll ${id} finished: ${JSON.stringify(finished.counts ?? finished.result ?? {})}`);
}

/** Waits until Shopify shows the approved SEO title of the catalog record. */
export async function approvedContentReachesShop(productId, skuId, log) {
  const record = await catalog.api('GET', `/v1/products/${skuId}`);
  const approved = record.data.attributes.find(
    (a) => a.key === 'seoTitle' && a.blame === 'ENRICHMENT_APPROVED',
  );
  if (!approved) throw new Error(`the catalog record ${skuId} has no approved seoTitle to push`);
  const state = await waitFor('the approved content in Shopify', async () => {
    const current = await shopifyState(productId);
    return current['seo.title'] === approved.value && current;
  });
  log(`  Shopify now shows the approved SEO title: "${state['seo.title']}"`);
  return state;
}

/** The merchant edits the SEO title; a later AI value for it is not pushed over the edit. */
export async function merchantEditIsRespected(productId, skuId, log) {
  await shop.rest('PUT', `products/${productId}.json`, {
    product: { metafields_global_title_tag: 'Linen shirt - our own words' },
  });
  log('  the merchant rewrote the SEO title: "Linen shirt - our own words"');
  await catalog.portal('PATCH', `/products/${skuId}`, {
    attributes: [{ key: 'seoTitle', value: 'Linen Shirt | Breathable summer classic' }],
  });
  log('  in the catalog, a person then changed seoTitle again');
  await connectorPolls(log);
  const state = await shopifyState(productId);
  if (state['seo.title'] !== 'Linen shirt - our own words') {
    throw new Error(`the merchant's SEO title was overwritten: "${state['seo.title']}"`);
  }
  log(`  Shopify keeps the merchant's SEO title: "${state['seo.title']}"`);
  return state;
}
