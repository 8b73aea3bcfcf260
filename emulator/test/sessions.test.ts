import { beforeEach, describe, expect, it } from "vitest";
import { acceptedTradeIn, b64, emulatorPerFile, errorOf, makeCart } from "./harness";

// Contract: States › Session version ("the caller regenerates the session hash from the new
// session_id") against the public docs (query again with the returned id exactly as returned;
// session_id opaque, tradein_item an id), and Valuation validity ("now is after valid_until").
// Each reading is a merchant setting (PATCH /__emulator/merchants/:id).

const h = emulatorPerFile();
let token: string;
beforeEach(async () => {
  token = (await h.login()).access_token;
});

const session = (key: string) => h.api(token, `/core/sessions/${encodeURIComponent(key)}/`);
const settings = (patch: Record<string, string>) => h.control("PATCH", "/merchants/m_demo", patch);
const supersede = (hash: string) => h.control("POST", `/sessions/${hash}/supersede`, {});

describe("session_versioning", () => {
  it("defaults to as_is, the public docs' reading", async () => {
    const merchants = await (await h.control("GET", "/merchants")).json();
    expect(merchants.merchants[0]).toMatchObject({
      id: "m_demo",
      session_versioning: "as_is",
      session_id_form: "hash_version",
      tradein_item_form: "object",
    });
  });

  it("regenerate: the hash answers the current version in full; a session_id in the path is 404", async () => {
    expect((await settings({ session_versioning: "regenerate" })).status).toBe(200);
    const ti = await acceptedTradeIn(h);
    await supersede(ti.hash);
    const byHash = await session(ti.hash);
    expect(await byHash.json()).toEqual({
      session_id: `${ti.hash}|002`,
      note: expect.any(String),
      tradein_item: expect.objectContaining({ id: ti.id }),
    });
    const asReturned = await errorOf(await session(`${ti.hash}|002`));
    expect(asReturned).toMatchObject({ status: 404, error: "not_found" });
    expect(asReturned.error_description).toMatch(/regenerate the hash/);
  });

  it("as_is: a superseded session points at the session_id to query; only that answer has the trade-in", async () => {
    const ti = await acceptedTradeIn(h);
    await supersede(ti.hash);
    const pointer = await (await session(ti.hash)).json();
    expect(pointer).not.toHaveProperty("tradein_item");
    const final = await (await session(pointer.session_id)).json();
    expect(final).toMatchObject({ session_id: pointer.session_id, tradein_item: { id: ti.id } });
  });

  it("keeps working past version 999: more digits, still re-queryable", async () => {
    const ti = await acceptedTradeIn(h);
    const moved = await h.control("POST", `/sessions/${ti.hash}/supersede`, { versions: 999 });
    expect((await moved.json()).session_id).toBe(`${ti.hash}|1000`);
    const pointer = await (await session(ti.hash)).json();
    expect(pointer.session_id).toBe(`${ti.hash}|1000`);
    expect(await (await session(pointer.session_id)).json()).toMatchObject({
      session_id: `${ti.hash}|1000`,
      tradein_item: { id: ti.id, session_id: `${ti.hash}|1000` },
    });
    expect((await session(`${ti.hash}|999`)).status).toBe(410);
    expect((await session(`${ti.hash}|01000`)).status).toBe(404);
    const cart = makeCart();
    const bought = await h.api(token, "/register-purchase", {
      method: "POST",
      json: { session_hash: `${ti.hash}|1000`, cart: b64(cart), order_amount: cart.total },
    });
    expect(bought.status).toBe(200);
  });
});

describe("public docs' variants", () => {
  it("tradein_item_form id: the session carries the item's id as a string", async () => {
    await settings({ tradein_item_form: "id" });
    const ti = await acceptedTradeIn(h);
    expect(await (await session(ti.hash)).json()).toEqual({
      session_id: ti.hash,
      tradein_item: ti.id,
    });
  });

  it("session_id_form uuid: an opaque id per version, queried as returned; an old one is 410", async () => {
    await settings({ session_id_form: "uuid" });
    const ti = await acceptedTradeIn(h);
    const first = await (await session(ti.hash)).json();
    expect(first.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toHaveProperty("tradein_item");
    expect(await (await session(first.session_id)).json()).toMatchObject({
      session_id: first.session_id,
      tradein_item: { id: ti.id, session_id: first.session_id },
    });
    await supersede(ti.hash);
    const second = await (await session(ti.hash)).json();
    expect(second.session_id).not.toBe(first.session_id);
    expect(await (await session(second.session_id)).json()).toMatchObject({
      note: expect.any(String),
      tradein_item: { id: ti.id },
    });
    expect(await errorOf(await session(first.session_id))).toMatchObject({
      status: 410,
      error: "gone",
    });
  });
});

describe("valuation validity: expired when now is after valid_until", () => {
  /** A trade-in valued an hour ago, with the clock stopped at its valid_until. */
  async function frozenAtValidUntil() {
    await h.control("POST", "/clock/set", { now: "2031-03-01T11:00:00.000Z", freeze: true });
    const ti = await acceptedTradeIn(h, { valid_until: "2031-03-01T12:00:00.000Z" });
    await h.control("POST", "/clock/advance", { hours: 1 });
    return ti;
  }

  it("is still valid at valid_until exactly, for the trade-in look-up and register-purchase", async () => {
    const ti = await frozenAtValidUntil();
    token = (await h.login()).access_token;
    expect((await h.api(token, `/core/tradeinitems/${ti.id}/`)).status).toBe(200);
    const cart = makeCart();
    const bought = await h.api(token, "/register-purchase", {
      method: "POST",
      json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total },
    });
    expect(bought.status).toBe(200);
  });

  it("is expired one millisecond later", async () => {
    const ti = await frozenAtValidUntil();
    await h.control("POST", "/clock/advance", { ms: 1 });
    token = (await h.login()).access_token;
    expect((await h.api(token, `/core/tradeinitems/${ti.id}/`)).status).toBe(410);
    const cart = makeCart();
    const late = await h.api(token, "/register-purchase", {
      method: "POST",
      json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total },
    });
    expect(await errorOf(late)).toMatchObject({ status: 410, error: "gone" });
  });

  it("the session shows the valuation at valid_until exactly, and not 1 ms later (id form too)", async () => {
    await settings({ tradein_item_form: "id" });
    const ti = await frozenAtValidUntil();
    token = (await h.login()).access_token;
    expect(await (await session(ti.hash)).json()).toEqual({
      session_id: ti.hash,
      tradein_item: ti.id,
    });
    await h.control("POST", "/clock/advance", { ms: 1 });
    expect(await (await session(ti.hash)).json()).toEqual({ session_id: ti.hash });
    expect((await h.api(token, `/core/tradeinitems/${ti.id}/`)).status).toBe(410);
  });
});
