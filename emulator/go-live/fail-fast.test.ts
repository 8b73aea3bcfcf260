// The go-live package fails fast with a reason (emulator/README.md, "Go-live journeys"): a
// journey set that cannot pass is refused where it is declared, and an emulator that does not
// answer is named at once, instead of each journey waiting out its timeout.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { EmulatorControl } from "./control.js";
import { defineGoLiveJourneys, type GoLiveShop } from "./journeys.js";

const step = async () => {};
const SHOP: GoLiveShop = {
  addToCart: step,
  openCheckout: step,
  fillCheckout: step,
  readAmountToPay: async () => 0,
  chooseServicePay: step,
  chooseCard: step,
  placeOrder: step,
  readConfirmation: async () => ({ orderNumber: "1", total: 0 }),
  storedOrder: async () => undefined,
};
const OPTIONS = {
  shopUrl: "http://localhost:5510",
  emulatorUrl: "http://localhost:5520",
  shop: SHOP,
  isConfirmationPage: () => true,
};

describe("defineGoLiveJourneys", () => {
  it("refuses scenarios 1 and 2 without a customer, saying what to give", () => {
    expect(() => defineGoLiveJourneys(OPTIONS)).toThrow(
      /scenario 1 and 2 needs options.customer \(and shop.signIn\).*`scenarios: \[3\]` as a guest/,
    );
    expect(() => defineGoLiveJourneys({ ...OPTIONS, scenarios: [2, 3] })).toThrow(
      /scenario 2 needs options.customer/,
    );
  });

  it("refuses a customer without shop.signIn", () => {
    expect(() =>
      defineGoLiveJourneys({ ...OPTIONS, customer: { email: "ada@example.com", password: "x" } }),
    ).toThrow("options.customer is given but shop.signIn is not");
  });
});

describe("EmulatorControl", () => {
  it("names the emulator's URL and how to start it when nothing listens there", async () => {
    // A port that was just free: nothing listens on it once the server has closed.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const control = new EmulatorControl(`http://127.0.0.1:${port}`);
    await expect(control.ensureReachable()).rejects.toThrow(
      new RegExp(
        `The emulator at http://127.0.0.1:${port} did not answer GET /__emulator/health .*Start it`,
      ),
    );
  });
});
