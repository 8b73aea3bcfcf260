import { COUNTRIES } from "@/lib/shop/address";
import { Field, SelectField } from "./field";

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: c.name }));

/** The contract's Address fields, named `<prefix>_<field>` (e.g. billing_given_name). */
export function AddressFields({
  prefix,
  values,
  errors,
}: {
  prefix: "billing" | "shipping";
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
}) {
  const section = prefix === "billing" ? "billing" : "shipping";
  const f = (field: string) => ({
    name: `${prefix}_${field}`,
    defaultValue: values[`${prefix}_${field}`],
    error: errors[`${prefix}_${field}`],
  });
  return (
    <div className="address-grid">
      <Field
        {...f("given_name")}
        label="First name"
        autoComplete={`${section} given-name`}
        required
      />
      <Field
        {...f("family_name")}
        label="Last name"
        autoComplete={`${section} family-name`}
        required
      />
      <Field
        {...f("address")}
        label="Street address"
        autoComplete={`${section} street-address`}
        required
      />
      <Field
        {...f("city")}
        label="Town or city"
        autoComplete={`${section} address-level2`}
        required
      />
      <Field {...f("state")} label="County or region" autoComplete={`${section} address-level1`} />
      <Field
        {...f("postal_code")}
        label="Postal code"
        autoComplete={`${section} postal-code`}
        required
      />
      <SelectField
        {...f("country_code")}
        label="Country"
        options={COUNTRY_OPTIONS}
        autoComplete={`${section} country`}
      />
      <Field {...f("phone")} label="Phone" type="tel" autoComplete={`${section} tel`} required />
    </div>
  );
}
