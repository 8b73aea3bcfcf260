// drizzle-kit's configuration (`npx drizzle-kit generate` in this folder writes the migrations
// of drizzle/ from lib/schema.ts: the shop's tables and the adapter's). A plain object: the
// shop's build does not install drizzle-kit.
export default {
  dialect: "sqlite",
  schema: "./lib/schema.ts",
  out: "./drizzle",
};
