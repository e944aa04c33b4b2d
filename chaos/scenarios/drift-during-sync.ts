import type { DriftRepairOutcome } from '../../apps/connector/src/drift/drift-repairs.service.js';
import type { DriftReportDto } from '../../apps/connector/src/drift/drift-report.dto.js';
import { type ChaosStack, startChaosStack } from '../support/chaos-stack.js';
import { measure, type Scenario } from '../support/scenario.js';
import { ShopModel } from '../support/shop-model.js';

/**
 * `drift-during-sync` (issue 40): drift reports, and "repair all" of every kind found, run over
 * and over while the merchant creates products, adds sizes to them (each a record a sync
 * creates under a claimed parent, maybe during a report's catalog scan) and changes them. A few
 * of the connector's own leftovers (its derived supplierSku of products Shopify never had) are in
 * the catalog from the start: those are the only records a repair may delete. So are a few
 * records of another tool on the same account (their own supplierSkus): live records nobody's
 * map claims, which must stay. Any record other than a leftover a repair answered `deleted` for
 * is a live record deleted: `liveRecordsDeleted`, which must be 0.
 */
export const driftDuringSync: Scenario = {
  name: 'drift-during-sync',
  summary: 'drift reports and repair-all of every kind while syncs create records: no live record deleted',
  async run(context) {
    const products = context.smoke ? 12 : 200;
    const grown = context.smoke ? 8 : 120;
    const changes = context.smoke ? 10 : 100;
    const stack = await startChaosStack(context.infra);
    try {
      const model = new ShopModel(stack);
      const leftovers = new Set<string>();
      for (let i = 0; i < (context.smoke ? 3 : 10); i++) {
        leftovers.add(await leftover(stack, `${stack.handle}:product:9${i}${Date.now()}`));
      }
      const foreign: string[] = [];
      for (let i = 0; i < 3; i++) foreign.push(await leftover(stack, `ERP-${i}-${Date.now()}`));
      const shop = `${stack.handle}.myshopify.com`;
      const deleted: string[] = [];
      let reports = 0;
      let refused = 0;
      let merchantDone = false;
      const drift = (async () => {
        // Until the merchant is done, then twice more (the last syncs and their records settle).
        for (let after = 0; after < 2; after += merchantDone ? 1 : 0) {
          const report = await stack.admin<DriftReportDto>('POST', `/admin/shops/${shop}/drift`);
          reports++;
          const skuIdOf = new Map(report.findings.map((f) => [f.id, f.skuId]));
          for (const [kind, count] of Object.entries(report.counts)) {
            if (count === 0) continue;
            const answer = await stack.admin<{ repairs: DriftRepairOutcome[] }>(
              'POST',
              `/admin/drift/${report.id}/repairs`,
              { kind },
            );
            for (const r of answer.repairs) {
              if (r.outcome === 'deleted') deleted.push(skuIdOf.get(r.findingId) ?? `finding ${r.findingId}`);
              if (r.outcome === 'refused') refused++;
            }
          }
        }
      })();
      try {
        await model.createMany(products, context.random);
        const parents = () => model.live().filter((p) => p.parent);
        for (let i = 0; i < grown && parents().length > 0; i++) {
          await model.addVariant(context.random.pick(parents()));
        }
        await model.churn(changes, context.random);
      } finally {
        merchantDone = true;
      }
      await drift;
      let foreignGone = 0;
      for (const skuId of foreign) {
        if ((await stack.account.api.get(`/v1/products/${skuId}`)).status === 404) foreignGone++;
      }
      const figures = await measure(context, stack, model, {
        driftReports: reports,
        driftDeletes: deleted.length,
        driftRefused: refused,
        liveRecordsDeleted: deleted.filter((skuId) => !leftovers.has(skuId)).length,
        foreignRecordsGone: foreignGone,
      });
      context.log(
        `drift: ${reports} reports, ${deleted.length} deletes (${leftovers.size} leftovers seeded)`,
      );
      return figures;
    } finally {
      await stack.close();
    }
  },
};

/** A record (with no image, no variant) made behind the connector's back; its skuId. */
async function leftover(stack: ChaosStack, supplierSku: string): Promise<string> {
  const made = await stack.account.api.post('/v1/products', {
    product: {
      supplierSku,
      attributes: [
        { key: 'name', value: 'Left over' },
        { key: 'brand', value: 'Acme' },
      ],
    },
  });
  if (made.status >= 300) throw new Error(`leftover: ${made.status} ${JSON.stringify(made.body)}`);
  return (made.body as { data: { skuId: string } }).data.skuId;
}
