import "server-only";
import { verifyPassword } from "@/lib/auth/password";
import { getDb } from "@/lib/db/client";

// Dummy hash so an unknown email costs the same scrypt time as a wrong password.
const DUMMY_HASH = `scrypt$00000000000000000000000000000000$${"0".repeat(128)}`;

export async function authenticateCustomer(email: string, password: string) {
  const customer = await getDb().customer.findUnique({ where: { email: email.toLowerCase() } });
  const ok = await verifyPassword(password, customer?.passwordHash ?? DUMMY_HASH);
  return ok && customer ? customer : null;
}

export async function getCustomer(id: string) {
  return getDb().customer.findUnique({
    where: { id },
    select: {
      id: true,
      email: true,
      given_name: true,
      family_name: true,
      address: true,
      orders: {
        orderBy: { createdAt: "desc" },
        take: 10,
        select: {
          id: true,
          number: true,
          status: true,
          total: true,
          currency: true,
          createdAt: true,
        },
      },
    },
  });
}
