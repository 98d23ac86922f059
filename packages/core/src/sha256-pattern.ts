/** A lowercase hex sha256. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
