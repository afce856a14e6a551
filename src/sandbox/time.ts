/** Timestamps as the service shows them: ISO 8601 with an explicit offset, seconds precision. */
export function isoWithOffset(instant: Date | number = Date.now()): string {
  return new Date(instant).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The checkout's `createdAt`: `YYYY-MM-DD HH:MM:SS` (UTC, no offset). */
export function checkoutTimestamp(instant: Date | number = Date.now()): string {
  return new Date(instant).toISOString().slice(0, 19).replace('T', ' ');
}
