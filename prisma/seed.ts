// Seeds the demo catalog and shoppers. Idempotent: run it again and nothing is duplicated.
import { hashPassword, verifyPassword } from "../lib/auth/password";
import { getDb } from "../lib/db/client";
import {
  CATEGORIES,
  DEMO_SHOPPERS,
  PRODUCTS,
  PROMOTION_CODES,
  splitListPrice,
  TAX_RATE,
} from "./catalog-data";

async function main() {
  const db = getDb();
  for (const [position, category] of CATEGORIES.entries()) {
    await db.category.upsert({
      where: { slug: category.slug },
      create: { ...category, position },
      update: { name: category.name, position },
    });
  }
  for (const product of PRODUCTS) {
    const category = await db.category.findUniqueOrThrow({ where: { slug: product.category } });
    const data = {
      name: product.name,
      description: product.description,
      image: `/products/${product.slug}.svg`,
      categoryId: category.id,
    };
    const row = await db.product.upsert({
      where: { slug: product.slug },
      create: { slug: product.slug, ...data },
      update: data,
    });
    for (const currency of ["EUR", "GBP"] as const) {
      const amounts = splitListPrice(product.list[currency], TAX_RATE[currency]);
      await db.productPrice.upsert({
        where: { productId_currency: { productId: row.id, currency } },
        create: { productId: row.id, currency, ...amounts },
        update: amounts,
      });
    }
  }
  for (const { code, ...rule } of PROMOTION_CODES) {
    await db.promotionCode.upsert({ where: { code }, create: { code, ...rule }, update: rule });
  }
  for (const shopper of DEMO_SHOPPERS) {
    const existing = await db.customer.findUnique({ where: { email: shopper.email } });
    if (existing && (await verifyPassword(shopper.password, existing.passwordHash))) continue;
    const passwordHash = await hashPassword(shopper.password);
    if (existing) {
      await db.customer.update({ where: { id: existing.id }, data: { passwordHash } });
      continue;
    }
    await db.customer.create({
      data: {
        email: shopper.email,
        passwordHash,
        given_name: shopper.given_name,
        family_name: shopper.family_name,
        address: { create: shopper.address },
      },
    });
  }
  console.log(
    `Seeded ${CATEGORIES.length} categories, ${PRODUCTS.length} products, ${PROMOTION_CODES.length} promotion codes, ${DEMO_SHOPPERS.length} shoppers.`,
  );
}

main()
  .then(() => getDb().$disconnect())
  .catch(async (error) => {
    console.error(error);
    await getDb().$disconnect();
    process.exit(1);
  });
