// Runtime feature flags (comma-separated in BLIND_SWITCHES).
const enabled = new Set((process.env.BLIND_SWITCHES ?? '').split(',').map((s) => s.trim()).filter(Boolean));

/** @param {string} name */
export function feature(name) {
  return enabled.has(name);
}
