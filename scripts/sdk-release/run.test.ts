import { describe, expect, it } from "vitest";
import { buildEnv, selected, suiteRuns } from "./run";
import { STAGING_SELECTION } from "./selection";

// The staging mode (--no-emulator) is one full run of the suite against a service the suite does
// not control; what decides it is the environment run.ts hands to Playwright, checked here.
const bundle = { file: "/tmp/report/candidate/main.js", sha256: "ab".repeat(32) };
const STAGING = "https://staging.example/assets/v1/main.js";
const base = { PATH: "/bin", SERVICE_API_BASE_URL: "https://staging.example" };

describe("buildEnv", () => {
  it("with the bundled emulator: the emulator serves the bundle file, the tests check its hash", () => {
    const built = buildEnv({ label: "candidate", source: "./dist/main.js" }, bundle, {}, base);
    expect(built).toEqual({
      env: { ...base, EXPECT_SDK_SHA256: bundle.sha256, EMULATOR_SDK: bundle.file },
    });
    const own = buildEnv({ label: "baseline" }, bundle, {}, base);
    expect(own).toEqual({ env: { ...base, EXPECT_SDK_SHA256: bundle.sha256 } });
  });

  it("--no-emulator: the shop loads the SDK from <assets_url>, no emulator, no service fixture", () => {
    const built = buildEnv(
      { label: "candidate", source: STAGING },
      bundle,
      { noEmulator: true },
      { ...base, EMULATOR_SDK: "/stale/main.js" },
    );
    expect(built).toEqual({
      env: {
        ...base,
        EXPECT_SDK_SHA256: bundle.sha256,
        SERVICE_ASSETS_URL: "https://staging.example/assets",
        EMULATOR_PORT: "0",
        SERVICE_FIXTURE: "none",
      },
    });
  });

  it("the staging selection with the bundled emulator (the mutation run's subset): its bundle, no service fixture", () => {
    const built = buildEnv(
      { label: "candidate", source: "./mutant/main.js" },
      bundle,
      STAGING_SELECTION,
      base,
    );
    expect(built).toEqual({
      env: {
        ...base,
        EXPECT_SDK_SHA256: bundle.sha256,
        EMULATOR_SDK: bundle.file,
        SERVICE_FIXTURE: "none",
      },
    });
  });

  it("--no-emulator refuses what cannot be a staging run", () => {
    for (const source of [
      undefined,
      "./dist/main.js",
      "https://cdn.example/sdk.js",
      "ftp://x/v1/main.js",
    ]) {
      expect(buildEnv({ label: "candidate", source }, bundle, { noEmulator: true }, base)).toEqual({
        error: "--no-emulator needs --sdk <assets_url>/v1/main.js (an http(s) URL)",
      });
    }
    const { SERVICE_API_BASE_URL: _, ...withoutService } = base;
    expect(
      buildEnv(
        { label: "candidate", source: STAGING },
        bundle,
        { noEmulator: true },
        withoutService,
      ),
    ).toEqual({ error: expect.stringContaining("needs SERVICE_API_BASE_URL") });
  });
});

describe("suiteRuns", () => {
  it("runs the SDK page suite and the storefront suite's release selection with one stack per worker", () => {
    const runs = suiteRuns({ builds: [], out: "", stacks: 3 });
    expect(runs.map((s) => s.id)).toEqual(["sdk-page", "storefront"]);
    expect(runs[1]?.env).toEqual({ E2E_WORKERS: "3", E2E_SELECTION: "release" });
    expect(suiteRuns({ builds: [], out: "", wholeStorefront: true })[1]?.env).toEqual({
      E2E_WORKERS: "2",
    });
    expect(suiteRuns({ builds: [], out: "", grepInvert: "^x" })[1]?.env).toMatchObject({
      E2E_SELECTION: "release",
      E2E_GREP_INVERT: "^x",
    });
    expect(suiteRuns({ builds: [], out: "", suites: ["storefront"] }).map((s) => s.id)).toEqual([
      "storefront",
    ]);
  });
});

describe("selected", () => {
  it("a staging run runs the staging selection: the storefront suite, no service fixture, no title filter", () => {
    const staging = selected({ builds: [], out: "", noEmulator: true });
    expect(staging).toMatchObject({ suites: ["storefront"], withoutServiceFixture: true });
    expect(staging).not.toHaveProperty("grepInvert");
    expect(selected({ builds: [], out: "" })).toEqual({ builds: [], out: "" });
  });
});
