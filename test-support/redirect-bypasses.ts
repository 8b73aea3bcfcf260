// Test data, shared by the unit test and the browser check (e2e/security): never imported by
// production code.

/** Known open-redirect bypass forms for a shop at `host` (for example `${host}`): every
 *  one must stay on the shop. Several name the shop's own host, so they follow its port. */
export const redirectBypasses = (host: string) => [
  "//evil.example",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  "\u0001//evil.example",
  " //evil.example",
  "\u0000//evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/./\\evil.example",
  "https://evil.example",
  "HTTPS://evil.example",
  "https:evil.example",
  `//evil.example@${host}`,
  `http://${host}@evil.example`,
  `http://evil.example\\@${host}`,
  `http://${host}.evil.example/`,
  `//${host}@evil.example`,
  "javascript:alert(1)",
  "java\tscript:alert(1)",
  "JavaScript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "//evil.example/%2F..",
  "/\\/evil.example",
  "//%09/evil.example",
  "http://evil.example",
  "ftp://evil.example",
  "//evil。example",
  `http://${nextPort(host)}/`,
  `https://${host}/`,
];

/** The same host with the next port: another origin however alike. */
function nextPort(host: string): string {
  const [name, port] = host.split(":");
  return `${name}:${Number(port ?? 80) + 1}`;
}
