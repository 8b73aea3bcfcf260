/** Test-only: the address the minimal shop's tests and journeys fill in (contract Address). */
export const TEST_ADDRESS = {
  given_name: "Ada",
  family_name: "Lovelace",
  phone: "",
  address: "1 Main Street",
  city: "Berlin",
  state: "",
  country_code: "DE",
  postal_code: "10115",
};
