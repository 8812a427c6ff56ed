/**
 * The host and port a provider's requests go to, from its base URL (the port the scheme implies
 * when the URL names none); undefined for a URL that does not parse.
 */
export function serverOf(
  baseURL: string | undefined,
  fallback: string,
): { readonly address: string; readonly port: number } | undefined {
  try {
    const url = new URL(baseURL ?? fallback);
    const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
    return { address: url.hostname, port };
  } catch {
    return undefined;
  }
}
