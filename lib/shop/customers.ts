import "server-only";
import { verifyPassword } from "@/lib/auth/password";
import { getDb } from "@/lib/db/client";
import { ADDRESS_FIELDS, type Address } from "./address";

// Dummy hash so an unknown email costs the same scrypt time as a wrong password.
const DUMMY_HASH = `scrypt$00000000000000000000000000000000$${"0".repeat(128)}`;

export async function authenticateCustomer(email: string, password: string) {
  const customer = await getDb().customer.findUnique({ where: { email: email.toLowerCase() } });
  const ok = await verifyPassword(password, customer?.passwordHash ?? DUMMY_HASH);
  return ok && customer ? customer : null;
}

/** Whether an account has this email (the login throttle counts failures of existing accounts
 *  past its cap, lib/auth/login-throttle.ts). */
export async function customerExists(email: string): Promise<boolean> {
  const row = await getDb().customer.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true },
  });
  return row !== null;
}

/** A customer as the shop's pages show them: name, email and saved address. */
export interface CustomerView {
  id: string;
  email: string;
  given_name: string;
  family_name: string;
  address: SavedAddress | null;
}

/** A customer's saved address: the contract's Address fields and the row's id. */
export type SavedAddress = Address & { id: string };

type CustomerRow = Omit<CustomerView, "address"> & {
  [K in keyof SavedAddress as `a_${K}`]: SavedAddress[K] | null;
};

/**
 * The customer with their saved address: one raw statement (the checkout form and the account
 * page read it on every view; a model query with its relation costs a compile by Prisma's query
 * compiler and two statements).
 */
export async function getCustomer(id: string): Promise<CustomerView | null> {
  const [row] = await getDb().$queryRaw<CustomerRow[]>`
    SELECT c."id", c."email", c."given_name", c."family_name",
      a."id" AS "a_id", a."given_name" AS "a_given_name", a."family_name" AS "a_family_name",
      a."phone" AS "a_phone", a."address" AS "a_address", a."city" AS "a_city",
      a."state" AS "a_state", a."country_code" AS "a_country_code",
      a."postal_code" AS "a_postal_code"
    FROM "Customer" c LEFT JOIN "Address" a ON a."id" = c."addressId"
    WHERE c."id" = ${id}`;
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    given_name: row.given_name,
    family_name: row.family_name,
    address:
      row.a_id === null
        ? null
        : {
            id: row.a_id,
            ...(Object.fromEntries(
              ADDRESS_FIELDS.map((field) => [field, row[`a_${field}`] ?? ""]),
            ) as Address),
          },
  };
}

/** The customer's ten latest orders, newest first, as the account page lists them. */
export async function recentOrders(
  customerId: string,
): Promise<{ id: string; number: string; status: string; total: number; currency: string }[]> {
  const rows = await getDb().$queryRaw<
    { id: string; number: string; status: string; total: number | bigint; currency: string }[]
  >`
    SELECT o."id", o."number", o."status", o."total", o."currency" FROM "Order" o
    WHERE o."customerId" = ${customerId}
    ORDER BY o."createdAt" DESC, o."id" DESC
    LIMIT 10`;
  return rows.map((row) => ({ ...row, total: Number(row.total) }));
}
