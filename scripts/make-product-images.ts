// Draws the catalog's product images as small SVG files in public/products (nothing is fetched
// from the network): a picture of the product on a soft backdrop, no name baked in (the page
// says the name; the image's alt text comes from the page). Each kind of audio product is drawn
// as what it is: earbuds, over-ear headphones, a portable speaker, a soundbar. Run again after
// changing prisma/catalog-data.ts: npx tsx scripts/make-product-images.ts
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PRODUCTS, type SeedProduct } from "../prisma/catalog-data";

const W = 480;
const H = 360;
const SCREEN = `url(#screen)`;

function audio(p: SeedProduct, c: string): string {
  const name = p.name.toLowerCase();
  if (name.includes("buds")) {
    // Two earbuds beside their open case.
    return `<rect x="150" y="180" width="180" height="110" rx="48" fill="${c}"/><rect x="150" y="180" width="180" height="30" rx="15" fill="#0002"/><circle cx="240" cy="250" r="5" fill="#fff8"/><g fill="#f8fafc" stroke="${c}" stroke-width="6"><ellipse cx="190" cy="120" rx="34" ry="30"/><ellipse cx="290" cy="120" rx="34" ry="30"/></g><rect x="176" y="140" width="18" height="52" rx="9" fill="#f8fafc" stroke="${c}" stroke-width="6"/><rect x="286" y="140" width="18" height="52" rx="9" fill="#f8fafc" stroke="${c}" stroke-width="6"/>`;
  }
  if (name.includes("soundbar")) {
    return `<rect x="50" y="150" width="380" height="70" rx="35" fill="${c}"/><rect x="70" y="166" width="340" height="38" rx="19" fill="#0003"/><g fill="#fff4">${Array.from({ length: 28 }, (_, i) => `<circle cx="${88 + i * 11.5}" cy="185" r="3"/>`).join("")}</g><rect x="120" y="222" width="60" height="10" rx="5" fill="#0003"/><rect x="300" y="222" width="60" height="10" rx="5" fill="#0003"/>`;
  }
  if (name.includes("speaker")) {
    // A cylinder speaker with its grille and strap.
    return `<rect x="165" y="70" width="150" height="220" rx="60" fill="${c}"/><rect x="180" y="95" width="120" height="170" rx="50" fill="#0002"/><g fill="#fff3">${Array.from({ length: 7 }, (_, r) => Array.from({ length: 5 }, (_, k) => `<circle cx="${204 + k * 18}" cy="${118 + r * 21}" r="4"/>`).join("")).join("")}</g><path d="M215 70v-24h50v24" fill="none" stroke="${c}" stroke-width="10" stroke-linecap="round"/>`;
  }
  // Over-ear headphones.
  return `<path d="M140 200v-40a100 100 0 0 1 200 0v40" fill="none" stroke="${c}" stroke-width="18" stroke-linecap="round"/><rect x="112" y="175" width="66" height="105" rx="30" fill="${c}"/><rect x="302" y="175" width="66" height="105" rx="30" fill="${c}"/><rect x="160" y="188" width="22" height="80" rx="11" fill="#0003"/><rect x="298" y="188" width="22" height="80" rx="11" fill="#0003"/>`;
}

function device(p: SeedProduct): string {
  const c = p.color;
  switch (p.category) {
    case "phones":
      return `<rect x="178" y="36" width="124" height="252" rx="24" fill="${c}"/><rect x="187" y="47" width="106" height="230" rx="16" fill="${SCREEN}"/><rect x="224" y="53" width="32" height="8" rx="4" fill="#000a"/><path d="M187 200l106-70v60l-106 70z" fill="#fff1"/>`;
    case "tablets":
      return `<rect x="96" y="48" width="288" height="210" rx="20" fill="${c}"/><rect x="108" y="60" width="264" height="186" rx="10" fill="${SCREEN}"/><circle cx="240" cy="54" r="3" fill="#fff6"/><path d="M108 200l264-110v60l-264 96z" fill="#fff1"/>`;
    case "laptops":
      return `<rect x="116" y="54" width="248" height="168" rx="12" fill="${c}"/><rect x="128" y="66" width="224" height="144" rx="4" fill="${SCREEN}"/><path d="M84 224h312l-18 28H102z" fill="${c}"/><path d="M84 224h312v6H84z" fill="#0002"/><rect x="210" y="232" width="60" height="6" rx="3" fill="#fff5"/>`;
    default:
      return audio(p, c);
  }
}

function svg(p: SeedProduct): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" aria-hidden="true"><defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f7f9fc"/><stop offset="1" stop-color="#e9eef5"/></linearGradient><linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d2b3a"/><stop offset=".55" stop-color="${p.color}"/><stop offset="1" stop-color="#0f1722"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#bg)"/><ellipse cx="240" cy="306" rx="170" ry="16" fill="#1f293314"/>${device(p)}</svg>\n`;
}

const dir = path.resolve(import.meta.dirname, "../public/products");
mkdirSync(dir, { recursive: true });
for (const product of PRODUCTS) writeFileSync(path.join(dir, `${product.slug}.svg`), svg(product));
console.log(`Wrote ${PRODUCTS.length} images to public/products`);
