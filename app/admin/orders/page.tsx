import { redirect } from "next/navigation";

/** /admin/orders is where people expect the order list: it lives at /admin (filters kept). */
export default async function AdminOrdersIndex({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const one of Array.isArray(value) ? value : value ? [value] : []) query.append(key, one);
  }
  const search = query.toString();
  redirect(search ? `/admin?${search}` : "/admin");
}
