import { notFound } from "next/navigation";

/**
 * A Server Action is a public endpoint: anyone can post any arguments to its id, and a wrong
 * type would throw inside the action, which Next.js answers with a 500. The shop's actions take
 * their form as FormData (what the page's form sends); anything else is answered 404 through
 * `notFound()`, the 4xx a Server Action can give (docs/security.md, "Bodies and inputs").
 */
export function requireFormData(value: unknown): asserts value is FormData {
  if (!(value instanceof FormData)) notFound();
}
