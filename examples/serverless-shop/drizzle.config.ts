// drizzle-kit's configuration: `npx drizzle-kit generate` in this folder writes drizzle/ from
// lib/schema.ts (the integration's tables, Better Auth's and the shop's, one database). A plain
// object: the shop's build does not install drizzle-kit.
export default {
  dialect: "postgresql",
  schema: "./lib/schema.ts",
  out: "./drizzle",
};
