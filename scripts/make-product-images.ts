// Draws the catalog's product images as small SVG files in public/products (nothing is fetched
// from the network). Run again after changing prisma/catalog-data.ts: npx tsx scripts/make-product-images.ts
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PRODUCTS, type SeedProduct } from "../prisma/catalog-data";

const W = 480;
const H = 360;

function device(p: SeedProduct): string {
  const c = p.color;
  switch (p.category) {
    case "phones":
      return `<rect x="180" y="40" width="120" height="240" rx="20" fill="${c}"/><rect x="190" y="58" width="100" height="200" rx="8" fill="#eef3f8"/><rect x="222" y="46" width="36" height="6" rx="3" fill="#0003"/><circle cx="240" cy="268" r="5" fill="#fff6"/>`;
    case "tablets":
      return `<rect x="110" y="50" width="260" height="200" rx="18" fill="${c}"/><rect x="124" y="64" width="232" height="172" rx="6" fill="#eef3f8"/><circle cx="240" cy="57" r="3" fill="#fff6"/>`;
    case "laptops":
      return `<rect x="120" y="60" width="240" height="160" rx="10" fill="${c}"/><rect x="132" y="72" width="216" height="136" rx="4" fill="#eef3f8"/><path d="M90 222h300l-20 26H110z" fill="${c}"/><rect x="210" y="226" width="60" height="6" rx="3" fill="#fff5"/>`;
    default:
      return `<path d="M150 170a90 90 0 0 1 180 0" fill="none" stroke="${c}" stroke-width="18" stroke-linecap="round"/><rect x="128" y="160" width="50" height="80" rx="20" fill="${c}"/><rect x="302" y="160" width="50" height="80" rx="20" fill="${c}"/>`;
  }
}

function svg(p: SeedProduct): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${p.name}"><rect width="${W}" height="${H}" fill="#f4f6f9"/><circle cx="240" cy="165" r="150" fill="${p.color}" opacity=".08"/>${device(p)}<text x="240" y="325" text-anchor="middle" font-family="system-ui,sans-serif" font-size="22" font-weight="600" fill="#1f2933">${p.name}</text></svg>\n`;
}

const dir = path.resolve(import.meta.dirname, "../public/products");
mkdirSync(dir, { recursive: true });
for (const product of PRODUCTS) writeFileSync(path.join(dir, `${product.slug}.svg`), svg(product));
console.log(`Wrote ${PRODUCTS.length} images to public/products`);
