import { z } from "zod";
import { wellFormedString } from "./well-formed";

// Contract: Address fields (all strings): given_name, family_name, phone, address, city, state,
// country_code, postal_code.
export const ADDRESS_FIELDS = [
  "given_name",
  "family_name",
  "phone",
  "address",
  "city",
  "state",
  "country_code",
  "postal_code",
] as const;

export type Address = Record<(typeof ADDRESS_FIELDS)[number], string>;

/** Countries the shop delivers to (ISO 3166-1 alpha-2). */
export const COUNTRIES = [
  { code: "IE", name: "Ireland" },
  { code: "GB", name: "United Kingdom" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "ES", name: "Spain" },
  { code: "IT", name: "Italy" },
  { code: "NL", name: "Netherlands" },
  { code: "PT", name: "Portugal" },
] as const;

const text = (label: string, max: number) =>
  wellFormedString({ error: `Enter ${label}.` })
    .trim()
    .min(1, `Enter ${label}.`)
    .max(
      max,
      `${label[0]?.toUpperCase()}${label.slice(1)} is too long (${max} characters at most).`,
    );

export const addressSchema = z.object({
  given_name: text("a first name", 80),
  family_name: text("a last name", 80),
  phone: wellFormedString({ error: "Enter a phone number." })
    .trim()
    .regex(/^\+?[0-9 ()-]{6,20}$/, "Enter a phone number, digits and + ( ) - only."),
  address: text("a street address", 200),
  city: text("a town or city", 100),
  state: wellFormedString().trim().max(100, "County or region is too long.").default(""),
  country_code: z.enum(
    COUNTRIES.map((c) => c.code),
    { error: "Choose a country from the list." },
  ),
  postal_code: wellFormedString({ error: "Enter a postal code." })
    .trim()
    .regex(/^[A-Za-z0-9 -]{2,12}$/, "Enter a postal code (letters, digits, spaces)."),
});

export function countryName(code: string): string {
  return COUNTRIES.find((c) => c.code === code)?.name ?? code;
}
