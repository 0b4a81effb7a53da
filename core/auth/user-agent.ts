/** A short, human label for a User-Agent header ("Firefox on Windows"), for the session list; never parsed for trust. */
export function userAgentLabel(header: string | null | undefined): string | null {
  if (!header) return null;
  const browser = /Edg\//.test(header)
    ? "Edge"
    : /OPR\//.test(header)
      ? "Opera"
      : /Firefox\//.test(header)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(header)
          ? "Chrome"
          : /Safari\//.test(header)
            ? "Safari"
            : null;
  const system = /Android/.test(header)
    ? "Android"
    : /iPhone|iPad|iPod/.test(header)
      ? "iOS"
      : /Windows/.test(header)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(header)
          ? "macOS"
          : /CrOS/.test(header)
            ? "ChromeOS"
            : /Linux/.test(header)
              ? "Linux"
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? header.slice(0, 60);
}
