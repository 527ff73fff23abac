/**
 * Sizes for people, in decimal units as browsers and phones show a file's size (1 GB =
 * 1,000,000,000 bytes): one formatter for the upload row, the library and every limit message,
 * so a file and the limit it is held to are written the same way.
 */
const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

export function formatBytes(bytes: number, fractionDigits?: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 ? 0 : (fractionDigits ?? (value >= 100 ? 0 : 1));
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** A limit, a round figure as configured: "10 GB", not "10.0 GB". */
export function formatLimitBytes(bytes: number, fractionDigits?: number): string {
  return formatBytes(bytes, fractionDigits).replace(/\.0+ /, " ");
}

/**
 * A size and the limit it is over, written with as many decimals as it takes to tell them apart
 * (a file one byte over 10 GB is not "10 GB; the limit is 10 GB").
 */
export function formatSizeOverLimit(sizeBytes: number, limitBytes: number): { size: string; limit: string } {
  const limit = formatLimitBytes(limitBytes);
  for (let digits = 1; digits <= 3; digits++) {
    const size = formatLimitBytes(sizeBytes, digits);
    if (size !== formatLimitBytes(limitBytes, digits)) return { size, limit };
  }
  return {
    size: `${sizeBytes.toLocaleString("en-US")} bytes`,
    limit: `${limitBytes.toLocaleString("en-US")} bytes`,
  };
}

/** "This file is 12.4 GB; the limit is 10 GB." */
export function describeSizeOverLimit(subject: string, sizeBytes: number, limitBytes: number): string {
  const { size, limit } = formatSizeOverLimit(sizeBytes, limitBytes);
  return `${subject} is ${size}; the limit is ${limit}.`;
}
