/** A stable version handle (`2026-07`): Shopify releases one per quarter. */
export const STABLE_VERSION = /^\d{4}-(01|04|07|10)$/;

/** The development version, served as itself although it is not a supported version. */
export const UNSTABLE_VERSION = 'unstable';

/**
 * Which version answers a request (or a webhook) for `requested`, given the supported stable
 * versions (oldest first), as Shopify does it: a supported version answers itself, `unstable`
 * answers itself, an older or retired one falls forward to the next supported one (the oldest
 * supported, once the version is past its support). Undefined (404) for a malformed version or
 * one newer than every supported version (the sandbox has no release candidate).
 */
export function answeringVersion(requested: string, supported: readonly string[]): string | undefined {
  if (requested === UNSTABLE_VERSION) return UNSTABLE_VERSION;
  if (!STABLE_VERSION.test(requested)) return undefined;
  return supported.find((version) => version >= requested);
}

/** Parses `2026-01,2026-04,...`: problems for malformed handles; the result is sorted, oldest first. */
export function parseApiVersions(raw: string): { versions: string[] } | { problem: string } {
  const versions = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const bad = versions.filter((version) => !STABLE_VERSION.test(version));
  if (versions.length === 0 || bad.length > 0) {
    return {
      problem: `must list stable versions like 2026-07 (YYYY-01/04/07/10), comma-separated${bad.length ? `; not: ${bad.join(', ')}` : ''}`,
    };
  }
  return { versions: [...new Set(versions)].sort() };
}
