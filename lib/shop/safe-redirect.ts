/** A same-site path to return to after a form post; anything else falls back to `fallback`. */
export function safeReturnPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) {
    return fallback;
  }
  if (value.includes("\\") || /[\r\n]/.test(value)) return fallback;
  return value;
}
