"use client";

import { useEffect } from "react";
import type { BrowserServiceConfiguration } from "./sdk-config.js";
import { loadServiceSdk } from "./sdk-events.js";

/**
 * Mounted once in the shop layout, so the SDK is on every shop page (contract, Front-end SDK). It
 * imports the SDK after hydration: the SDK injects teasers into the page's `.service-teaser`
 * elements, and doing that before React hydrated them would be a hydration mismatch.
 */
export function ServiceSdkLoader({ config }: { config: BrowserServiceConfiguration }) {
  useEffect(() => {
    void loadServiceSdk(config);
  }, [config]);
  return null;
}
