import type { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { DoctorCheckDto } from './doctor.dto.js';
import { doctorAnswer } from './doctor-catalog.js';
import type { MappingEvaluations } from './mapping-evaluations.service.js';

/** Products the doctor tries the mapping on (the evaluation's own default is 50). */
export const DOCTOR_EVALUATED_PRODUCTS = 25;
/** Reasons named in the check's detail, most products first. */
const TOP_REASONS = 3;

/**
 * Why: a mapping that loads can still leave products unenrichable (a category that is not a
 * leaf, a required attribute unmapped), silently. The shop's configured mapping tried on a
 * sample of its products (`MappingEvaluations`, dry: nothing sent nor stored): every one
 * enrichable passes; otherwise how many of how many, and the top reasons (warn: they sync, but
 * the catalog cannot fully enrich them). No mapping file warns, naming `mapping init`; a mapping
 * the account refuses fails.
 */
export async function checkMappingGaps(
  shop: string,
  mappings: ShopMappings,
  evaluations: MappingEvaluations,
): Promise<DoctorCheckDto> {
  const answer = (
    status: DoctorCheckDto['status'],
    detail: string,
    fix: Parameters<typeof doctorAnswer>[4],
  ) => doctorAnswer('mapping', shop, status, detail, fix);
  if (mappings.state(shop).status === 'unconfigured') {
    return {
      ...answer(
        'warn',
        `${shop} has no mapping file: its products map to nothing the catalog can enrich.`,
        `Draft one from the shop and the catalog account, decide what it leaves TODO, then set CONNECTOR_SHOP_<KEY>_MAPPING_FILE (docs/production.md, "The mapping").`,
      ),
      command: `npm run connector -- mapping init --shop ${shop}`,
    };
  }
  let evaluation: Awaited<ReturnType<MappingEvaluations['evaluate']>>;
  try {
    evaluation = await evaluations.evaluate(shop, { products: DOCTOR_EVALUATED_PRODUCTS });
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    if (error.code === ConnectorErrorCode.BAD_REQUEST && error.details?.problems !== undefined)
      return answer('fail', error.message, 'mapping_invalid');
    const cause =
      error.code === ConnectorErrorCode.SHOPIFY_UNAVAILABLE
        ? 'shopify_unavailable'
        : error.code === ConnectorErrorCode.CATALOG_UNAVAILABLE
          ? 'catalog_unreachable'
          : null;
    return answer('unknown', `The mapping could not be tried on ${shop}'s products: ${error.message}`, cause);
  }
  const sampled = `${evaluation.evaluated} product${evaluation.evaluated === 1 ? '' : 's'}${evaluation.more ? ` (the first ${evaluation.evaluated})` : ''}`;
  if (evaluation.unenrichable === 0) {
    const none =
      evaluation.evaluated === 0 ? ': the shop has no product to sync yet' : ': every one can be enriched';
    return answer('pass', `${evaluation.source} tried on ${sampled}${none}.`, null);
  }
  const top = evaluation.reasons
    .slice(0, TOP_REASONS)
    .map((r) => `${r.products} × ${r.reason}`)
    .join('; ');
  return answer(
    'warn',
    `${evaluation.unenrichable} of ${sampled} cannot be (fully) enriched with ${evaluation.source}: ${top}.`,
    'mapping_gaps',
  );
}
